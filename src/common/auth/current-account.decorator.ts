import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Account } from './account.js';

/**
 * The caller's account, as the key guard resolved it: always there on routes that need a key
 * (`@RequiresKey()`, `@RequiresFeature()`), undefined on `@OptionalKey()` routes called without one.
 */
export const CurrentAccount = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): Account | undefined => ctx.switchToHttp().getRequest<FastifyRequest>().account,
);
