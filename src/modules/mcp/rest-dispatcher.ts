import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { internalDispatchHeaders } from '../../common/rate-limit/internal-dispatch.js';
import { dict } from '../../domain/dict.js';

/** What a REST route answered to a dispatched request. */
export interface RestResponse {
  status: number;
  /** The parsed JSON body (null when the body is not JSON). */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

const TIMEOUT_MS = 30_000;
/** REST responses are bounded by their page limits; this only stops a runaway. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Where to reach this process's own listener: an unspecified bind address is reached on loopback. */
export function loopbackTarget(address: string | AddressInfo | null): { host: string; port: number } | { socketPath: string } {
  if (!address) throw new Error('The HTTP server is not listening');
  if (typeof address === 'string') return { socketPath: address };
  const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return { host, port: address.port };
}

/**
 * Sends a request to one of this application's own REST routes over its own listening socket, with the
 * caller's API key, so the route answers exactly as it would answer the caller: the key guard, the tier
 * features, the book rules, the free tier's delay, validation and error bodies all apply unchanged. The
 * request carries the internal-dispatch token, so the rate limiter does not count it a second time (the MCP
 * request that caused it was counted).
 *
 * Why a loopback request and not a call into the services: the policy is applied by the HTTP stack (guards,
 * pipes, interceptors, filters), so going through it is the only way to get the same answer without copying
 * the policy. Why not Fastify's `inject`: it does not run under jest's ESM loader, so the end-to-end tests
 * could not exercise it. The cost is one keep-alive loopback round trip per tool call.
 */
@Injectable()
export class RestDispatcher implements OnModuleDestroy {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 64 });

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleDestroy(): void {
    this.agent.destroy();
  }

  /** GET `/api/v1${path}` with the query and the caller's key. */
  get(path: string, query: URLSearchParams, apiKey: string, requestId?: string): Promise<RestResponse> {
    return this.send('GET', path, query, undefined, apiKey, requestId);
  }

  /** POST `/api/v1${path}` with a JSON body and the caller's key. */
  post(path: string, body: unknown, apiKey: string, requestId?: string): Promise<RestResponse> {
    return this.send('POST', path, new URLSearchParams(), body, apiKey, requestId);
  }

  private send(
    method: 'GET' | 'POST',
    path: string,
    query: URLSearchParams,
    body: unknown,
    apiKey: string,
    requestId?: string,
  ): Promise<RestResponse> {
    const server = this.adapterHost.httpAdapter.getHttpServer() as { address(): string | AddressInfo | null };
    const target = loopbackTarget(server.address());
    const qs = query.toString();
    const headers: Record<string, string> = dict({ accept: 'application/json', 'x-api-key': apiKey, ...internalDispatchHeaders() });
    if (requestId) headers['x-request-id'] = requestId;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    return new Promise<RestResponse>((resolve, reject) => {
      const req = request(
        { ...target, agent: this.agent, method, path: `/api/v1${path}${qs ? `?${qs}` : ''}`, headers, timeout: TIMEOUT_MS },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              req.destroy(new Error('The REST response is too large'));
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              body = null;
            }
            resolve({ status: res.statusCode ?? 500, body, headers: res.headers });
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`The REST route did not answer within ${TIMEOUT_MS / 1000} s`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
