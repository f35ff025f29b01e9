import { describe, expect, it } from '@jest/globals';
import { docsAssetAllowed } from '../../openapi.js';
import { parserError, rawErrorResponse } from './client-error.js';

describe('parserError', () => {
  it("maps what the HTTP parser refuses to the API's codes", () => {
    expect(parserError({ code: 'HPE_HEADER_OVERFLOW' }, 16384)).toMatchObject({
      code: 'header_too_large',
      status: 431,
      message: expect.stringContaining('16384 bytes'),
    });
    expect(parserError({ code: 'ERR_HTTP_REQUEST_TIMEOUT' }, 1)).toMatchObject({ code: 'request_timeout', status: 408 });
    expect(
      parserError({ code: 'HPE_INVALID_TRANSFER_ENCODING', reason: "Transfer-Encoding can't be present with Content-Length" }, 1),
    ).toMatchObject({
      code: 'invalid_request',
      status: 400,
      message: "Malformed HTTP request: Transfer-Encoding can't be present with Content-Length",
    });
    expect(parserError({ code: 'EWHATEVER', reason: 'client text' }, 1)?.message).toBe('Malformed HTTP request');
    expect(parserError({ code: 'ECONNRESET' }, 1)).toBeNull();
  });

  it('writes a complete HTTP response with the error body and a closed connection', () => {
    const res = rawErrorResponse(parserError({ code: 'HPE_HEADER_OVERFLOW' }, 16384)!, '/docs');
    const [head, body] = res.split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(head).toContain('Connection: close');
    expect(JSON.parse(body)).toEqual({
      error: {
        code: 'header_too_large',
        message: 'The request headers (the URL included) are larger than 16384 bytes',
        docs: '/docs#error-header_too_large',
      },
    });
  });
});

describe('docsAssetAllowed', () => {
  it('serves only the files the Swagger UI page loads', () => {
    for (const f of [
      'swagger-ui.css',
      'swagger-ui-bundle.js',
      'swagger-ui-standalone-preset.js',
      'favicon-32x32.png',
      'favicon-16x16.png',
    ]) {
      expect(docsAssetAllowed(`/docs/${f}`)).toBe(true);
      expect(docsAssetAllowed(`/docs/${f}?v=1`)).toBe(true);
    }
    for (const p of [
      '/docs/package.json',
      '/docs/README.md',
      '/docs/swagger-ui-bundle.js.map',
      '/docs/../package.json',
      '/docs/%2e%2e/package.json',
      '/docs/x/swagger-ui.css',
      '/docs/',
      '/other/swagger-ui.css',
      '/docs/swagger-ui.css%00',
    ]) {
      expect(docsAssetAllowed(p)).toBe(false);
    }
  });
});
