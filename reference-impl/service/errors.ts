// The two error types of the reference service. ApiError is what a handler or hook throws
// for a client-visible failure; the one error handler (error-handler.ts) renders it.
// WorldError is a bad fixture world: our operator's fault, raised before anything serves.

export type ValidationCode = 'missing_field' | 'invalid' | 'unprocessable' | 'custom';

export interface ValidationIssue {
  resource: string;
  field: string;
  code: ValidationCode;
  /** Only for `custom`: the one case where the code alone says nothing. */
  message?: string;
}

export type ApiErrorCode =
  | 'BAD_REQUEST'
  | 'BAD_JSON'
  | 'BAD_CREDENTIALS'
  | 'REQUIRES_AUTHENTICATION'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_ACCEPTABLE'
  | 'VALIDATION_FAILED'
  | 'UNSUPPORTED_VERSION'
  | 'MOVED'
  | 'GONE'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL';

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  /** Named `statusCode` because Fastify reads (and may write) that property on errors. */
  statusCode: number;
  readonly errors: ValidationIssue[] | undefined;

  constructor(statusCode: number, code: ApiErrorCode, message: string, errors?: ValidationIssue[]) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
  }
}

/** What the client asked for is elsewhere now (a renamed repository): a redirect to `location`. */
export class Moved extends ApiError {
  constructor(
    statusCode: 302 | 307,
    readonly location: string,
    message: string,
  ) {
    super(statusCode, 'MOVED', message);
  }
}

export const notFound = (): ApiError => new ApiError(404, 'NOT_FOUND', 'Not Found');

export function validationFailed(errors: ValidationIssue[]): ApiError {
  return new ApiError(422, 'VALIDATION_FAILED', 'Validation Failed', errors);
}

export class WorldError extends Error {
  readonly code = 'WORLD_INVALID';

  constructor(message: string) {
    super(message);
    this.name = 'WorldError';
  }
}
