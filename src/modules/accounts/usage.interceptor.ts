import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { UsageService } from './usage.service.js';

/**
 * Counts every request an API key made that the guards let through (authenticated, within the per-minute
 * budget, on a feature of the tier), the usage endpoint's own included. Operator and keyless calls are not
 * counted. Counting is an in-memory increment; the writes are batched by UsageService.
 */
@Injectable()
export class UsageInterceptor implements NestInterceptor {
  constructor(private readonly usage: UsageService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const account = ctx.switchToHttp().getRequest<FastifyRequest>().account;
      if (account) this.usage.record(account.accountId);
    }
    return next.handle();
  }
}
