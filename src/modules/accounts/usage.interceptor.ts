import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { isInternalDispatch } from '../../common/rate-limit/internal-dispatch.js';
import { UsageService } from './usage.service.js';

/**
 * Counts every request an API key made that the guards let through (authenticated, within the per-minute
 * budget, on a feature of the tier), the usage endpoint's own included. Operator and keyless calls are not
 * counted, nor is the REST request an MCP tool call makes on the caller's behalf (the tool call itself counts).
 * Counting is an in-memory increment; the writes are batched by UsageService.
 */
@Injectable()
export class UsageInterceptor implements NestInterceptor {
  constructor(private readonly usage: UsageService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const req = ctx.switchToHttp().getRequest<FastifyRequest>();
      if (req.account && !isInternalDispatch(req)) this.usage.record(req.account.accountId);
    }
    return next.handle();
  }
}
