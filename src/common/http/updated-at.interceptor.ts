import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { map, type Observable } from 'rxjs';
import { Clock } from '../time/clock.js';

/** Adds the response time as a top-level `updated_at` to an envelope that does not say it already. */
export function withUpdatedAt(body: unknown, iso: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const o = body as Record<string, unknown>;
  if (o.success !== true || 'updated_at' in o) return body;
  return { ...o, updated_at: iso };
}

/**
 * Every JSON envelope (`{success: true, data, ...}`) carries `updated_at` at the top level (as in the
 * public document's single and list envelopes): the time its data was read, which a route may set
 * itself (e.g. the board's time), otherwise the time of the response.
 */
@Injectable()
export class UpdatedAtInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    return next.handle().pipe(map((body) => withUpdatedAt(body, this.clock.iso())));
  }
}
