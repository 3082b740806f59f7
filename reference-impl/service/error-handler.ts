// The one place an error becomes a response. Handlers and hooks throw ApiError; errors
// Fastify raises itself (body parsing, limits, bad URLs) are mapped to the same shape;
// anything else is our bug: logged, and answered 500 without details.
//
// Decisions where the spec is silent ("Shape of the error response body: not shown"), each
// with the variation that makes it otherwise (variants.ts; suites/variants/conventions.yaml):
// - every error is {message, documentation_url, status}, plus errors[{resource, field, code}]
//   on 422 (errors.body-shape). errors.message-only sends {message} (and errors[]) alone;
//   errors.problem-details sends RFC 9457 problem details (application/problem+json: type,
//   title, status as a number, detail, and errors as {field: [messages]} on 422).
// - messages are the reference's own wording; errors.other-messages words every one otherwise
//   (no case may pin a message text).
// - a body over the limit: 413 (errors.oversized-body-413); errors.oversized-body-400 answers 400.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION, API_VERSION_HEADER, jsonContentType, setConventionHeaders } from './conventions.js';
import { ApiError, Moved, notFound, type ApiErrorCode, type ValidationIssue } from './errors.js';
import type { Faults } from './faults.js';
import type { Variants } from './variants.js';

export const DOCUMENTATION_URL = 'https://docs.service.example/rest';

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than this endpoint accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "Unsupported 'Content-Type' header");
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'BAD_REQUEST', 'Request body length does not match Content-Length');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // A path segment longer than any name the service holds cannot name anything.
      return notFound();
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return new ApiError(400, 'BAD_REQUEST', 'Bad request URL');
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new ApiError(statusCode, 'BAD_REQUEST', STATUS_CODES[statusCode] ?? 'Bad Request');
  }
  return new ApiError(500, 'INTERNAL', 'Internal Server Error');
}

/** The messages of the errors.other-messages variation: the same meaning, other words. */
const OTHER_MESSAGES: Record<ApiErrorCode, string> = {
  BAD_REQUEST: 'The request could not be understood',
  BAD_JSON: 'The request body is not well-formed JSON',
  BAD_CREDENTIALS: 'The token given is not valid',
  REQUIRES_AUTHENTICATION: 'You need to sign in for this',
  FORBIDDEN: 'You may not do this',
  NOT_FOUND: 'There is nothing here',
  CONFLICT: 'That clashes with the current state',
  PAYLOAD_TOO_LARGE: 'The request body is too big',
  UNSUPPORTED_MEDIA_TYPE: 'That media type is not supported',
  NOT_ACCEPTABLE: 'No representation matches the Accept header',
  VALIDATION_FAILED: 'Some parameters are invalid',
  UNSUPPORTED_VERSION: 'That API version is not served',
  MOVED: 'This has a new address',
  GONE: 'This is no longer available',
  SERVICE_UNAVAILABLE: 'Try again later',
  INTERNAL: 'Something broke on our side',
};

/** The switches an error body reads; none for an error answered on the socket, before any request exists. */
interface BodySwitches {
  faults?: Faults;
  variants?: Variants;
}

export function errorBody(error: ApiError, { variants }: BodySwitches = {}): Record<string, unknown> {
  const other = variants?.on('errors.other-messages') ?? false;
  const message = other ? OTHER_MESSAGES[error.code] : error.message;
  const issues = other
    ? error.errors?.map((issue) => (issue.message === undefined ? issue : { ...issue, message: 'not valid here' }))
    : error.errors;
  if (variants?.on('errors.problem-details') && error.statusCode >= 400) {
    return {
      type: 'about:blank',
      title: STATUS_CODES[error.statusCode] ?? 'Error',
      status: error.statusCode,
      detail: message,
      ...(issues && { errors: problemErrors(issues) }),
    };
  }
  if (variants?.on('errors.message-only')) {
    return { message, ...(error instanceof Moved && { url: error.location }), ...(issues && { errors: issues }) };
  }
  return {
    message,
    documentation_url: DOCUMENTATION_URL,
    status: String(error.statusCode),
    ...(error instanceof Moved && { url: error.location }),
    ...(issues && { errors: issues }),
  };
}

/** Validation issues as problem details carry them (as ASP.NET does): each field's messages, `$` for the body itself. */
function problemErrors(issues: readonly ValidationIssue[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const issue of issues) (byField[issue.field === '' ? '$' : issue.field] ??= []).push(issue.message ?? issue.code);
  return byField;
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  let apiError = toApiError(error);
  // Errors Fastify raises before routing (a path that is no valid percent-encoding, an overlong
  // segment) come with a request that has none of the service's decorations: no faults, no
  // variations. They are answered in the reference's own shape.
  const switched = (request as Partial<FastifyRequest>).variants !== undefined;
  if (!switched) {
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'unexpected error');
    reply
      .code(apiError.statusCode)
      .header('content-type', 'application/json; charset=utf-8')
      .header(API_VERSION_HEADER, API_VERSION)
      .send(errorBody(apiError));
    return;
  }
  const { faults, variants } = request;
  if (apiError.statusCode === 422 && faults.on('errors.validation-as-400'))
    apiError = new ApiError(400, 'BAD_REQUEST', apiError.message, apiError.errors);
  if (apiError.statusCode === 413 && variants.on('errors.oversized-body-400'))
    apiError = new ApiError(400, 'BAD_REQUEST', 'Request body is larger than this endpoint accepts');
  if (apiError.statusCode >= 500) request.log.error({ err: error }, 'unexpected error');
  if (apiError instanceof Moved) reply.header('location', apiError.location);
  const problem = variants.on('errors.problem-details') && apiError.statusCode >= 400;
  // Headers set here too: errors raised before routing skip the onSend hook that normally adds them.
  setConventionHeaders(request, reply);
  reply
    .code(apiError.statusCode)
    .header('content-type', problem ? 'application/problem+json; charset=utf-8' : jsonContentType(request))
    .send(errorBody(apiError, request));
}

/** Unknown routes and known paths with another method alike: 404, revealing nothing. */
const routeNotFound = (request: FastifyRequest) =>
  request.faults.on('errors.unknown-route-400') ? new ApiError(400, 'BAD_REQUEST', 'Bad Request') : notFound();

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler(async (request) => {
    throw routeNotFound(request);
  });
}

/**
 * An onRequest hook, after the conventions: an unknown route is answered before its body is
 * read, so a path that does not exist is 404 whatever its body (never 413, 415 or 400 for it).
 */
export function refuseUnknownRouteEarly(request: FastifyRequest): void {
  if (request.is404) throw routeNotFound(request);
}

/**
 * Malformed HTTP (bad framing, a body shorter than its Content-Length, oversized headers)
 * never reaches Fastify's routing; answer it on the socket with the same error body.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const reason = STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify(errorBody(new ApiError(status, 'BAD_REQUEST', reason)));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${API_VERSION_HEADER}: ${API_VERSION}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
