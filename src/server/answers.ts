import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import { BadRequestError, OriginBudgetError } from './errors.ts';
import { WorkRefusedError } from './work/pool.ts';

/**
 * How the service answers what it does not serve: unknown routes and wrong methods (404,
 * 405 with Allow), and every error in the API's one shape, `{ error, message, field? }`:
 * validation and bad URLs 400, non-JSON bodies 415, refused work 429 or 413, a client's
 * budget of new origins spent 429, the rest 500
 * without its details.
 */
/** Fastify's errors a client can cause, as the API names them. */
const FRAMEWORK_ERRORS: Record<
  string,
  { status: number; error: string; message: (error: FastifyError, bodyLimit: number) => string }
> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    error: 'invalid-json',
    message: (error) => `the body is not valid JSON (${error.message.replace(/^.*?: /, '')})`,
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    error: 'invalid-json',
    message: () => 'the body is empty; send a JSON object',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    error: 'body-too-large',
    message: (_error, limit) =>
      `the body is larger than this service takes: ${limit.toLocaleString('en')} bytes (its bodyLimit)`,
  },
};

export function registerErrorAnswers(app: FastifyInstance): void {
  // Unknown routes and wrong methods answer in the API's own shape, with where to look.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ['GET', 'POST'].filter((method) => app.hasRoute({ method, url: path }));
    if (allowed.length > 0) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          error: 'method-not-allowed',
          message: `${request.method} is not allowed on ${path}; use ${allowed.join(' or ')}`,
        });
    }
    return reply.code(404).send({
      error: 'not-found',
      message: `no such route: ${request.method} ${path} (the API is under /v1; see /openapi.json)`,
    });
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.validation) {
      const first = error.validation[0]!;
      const { missingProperty, additionalProperty } = first.params as {
        missingProperty?: string;
        additionalProperty?: string;
      };
      const path = [
        error.validationContext,
        ...first.instancePath.split('/').filter(Boolean),
        missingProperty ?? additionalProperty,
      ]
        .filter(Boolean)
        .join('.');
      // An unknown field is named (ajv says only "must NOT have additional properties").
      const message = additionalProperty
        ? `${path}: unknown field (not one the API takes)`
        : `${path}: ${first.message}`;
      return reply.code(400).send({ error: 'invalid-request', field: path, message });
    }
    if (error instanceof BadRequestError)
      return reply
        .code(400)
        .send({ error: error.reason, field: error.field, message: error.message });
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || error.statusCode === 415) {
      return reply.code(415).send({
        error: 'unsupported-media-type',
        message: `send the body as application/json (got ${JSON.stringify(_request.headers['content-type'] ?? 'none')})`,
      });
    }
    if (error instanceof OriginBudgetError) {
      return reply
        .code(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send({ error: 'origin-budget', message: error.message });
    }
    if (error instanceof WorkRefusedError) {
      if (error.reason === 'busy') reply.header('retry-after', '1');
      return reply.code(error.reason === 'busy' ? 429 : 413).send({
        error: error.reason === 'busy' ? 'busy' : 'too-much-work',
        message: error.message,
      });
    }
    // The framework's own failures, in the API's words (never its FST_ codes).
    const framework = FRAMEWORK_ERRORS[error.code];
    if (framework) {
      return reply.code(framework.status).send({
        error: framework.error,
        message: framework.message(error, app.initialConfig.bodyLimit ?? 0),
      });
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) app.log.error(error);
    return reply.code(status).send({
      error: status >= 500 ? 'internal-error' : 'bad-request',
      message: status >= 500 ? 'internal error' : error.message.replace(/^FST_\w+: /, ''),
    });
  });
}

/**
 * What Node refuses before any route sees the request, in the API's shape too (Fastify's own
 * answer is `{"error":"Bad Request","statusCode":400}`): a request line and headers over
 * Node's limit 431, a request not received within the time limits 408, bytes that are not
 * HTTP 400. The connection is closed after it, as Node closes it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers-too-large', `the request line and headers are over ${maxHeaderSize} bytes`]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request-timeout', 'the request did not arrive within the time limit']
        : [400, 'bad-request', 'the request is not valid HTTP/1.1'];
  const body = JSON.stringify({ error: code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
