// The one place an error becomes a response. Handlers and hooks throw ApiError; errors
// Fastify raises itself (body parsing, limits, bad URLs) are mapped to the same shape;
// anything else is our bug: logged, and answered 500 without details.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSION, API_VERSION_HEADER } from './conventions.js';
import { ApiError, Moved, notFound } from './errors.js';
import type { Faults } from './faults.js';

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

export function errorBody(error: ApiError, faults?: Faults): Record<string, unknown> {
  return {
    message: error.message,
    ...(!faults?.on('errors.body-without-documentation-url') && { documentation_url: DOCUMENTATION_URL }),
    status: String(error.statusCode),
    ...(error instanceof Moved && { url: error.location }),
    ...(error.errors ? { errors: error.errors } : {}),
  };
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const { faults } = request;
  let apiError = toApiError(error);
  if (apiError.statusCode === 422 && faults.on('errors.validation-as-400'))
    apiError = new ApiError(400, 'BAD_REQUEST', apiError.message, apiError.errors);
  if (apiError.statusCode >= 500) request.log.error({ err: error }, 'unexpected error');
  if (apiError instanceof Moved) reply.header('location', apiError.location);
  reply
    .code(apiError.statusCode)
    .header('content-type', 'application/json; charset=utf-8')
    // Set here too: errors raised before routing skip the onSend hook that normally adds it.
    .header(API_VERSION_HEADER, API_VERSION)
    .send(errorBody(apiError, faults));
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
