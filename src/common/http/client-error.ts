import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError } from './api-error.js';
import { errorBody } from './exception.filter.js';

/** What Node's HTTP parser reports about a request it could not read (llhttp codes, with a fixed `reason`). */
export interface ParserError {
  code?: string;
  reason?: string;
}

/**
 * The API error for a request the HTTP parser refused before any route saw it: headers (or the URL) over the
 * size limit, a request that did not arrive in time, or a malformed request (Content-Length with
 * Transfer-Encoding, invalid characters, a bad chunk). Null when there is nobody to answer (connection reset).
 */
export function parserError(err: ParserError, maxHeaderBytes: number): ApiError | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('header_too_large', `The request headers (the URL included) are larger than ${maxHeaderBytes} bytes`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return new ApiError('request_timeout', 'The request did not arrive in time');
    default: {
      // llhttp's reasons are fixed texts of the library ("Transfer-Encoding can't be present with Content-Length"),
      // never the client's bytes.
      const why = typeof err.reason === 'string' && err.code?.startsWith('HPE_') ? `: ${err.reason}` : '';
      return new ApiError('invalid_request', `Malformed HTTP request${why}`);
    }
  }
}

/** The raw HTTP/1.1 response carrying the API's error body; the connection is closed after it. */
export function rawErrorResponse(e: ApiError, docsUrl: string): string {
  const body = JSON.stringify(errorBody(e.code, e.message, docsUrl, e.extras));
  return (
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'X-Content-Type-Options: nosniff\r\n' +
    'Cache-Control: no-store\r\n' +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** Fastify's clientErrorHandler: answers in the contract's error body instead of Fastify's default one. */
export function clientErrorHandler(docsUrl: string, maxHeaderBytes: number): (err: ParserError, socket: Socket) => void {
  return (err, socket) => {
    const e = parserError(err, maxHeaderBytes);
    if (!e || socket.destroyed) return;
    // A response already under way (the body of a request that was being answered broke off): close, as Node does.
    const inProgress = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (!socket.writable || inProgress) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(e, docsUrl));
    // A client that never reads must not hold the socket open.
    setTimeout(() => socket.destroy(), 2000).unref();
  };
}
