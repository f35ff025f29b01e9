import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { ApiError } from '../http/api-error.js';
import { AccessPolicy } from './access-policy.js';
import type { Account } from './account.js';
import { Authenticator, isDirectLocal } from './authenticator.js';
import { ACCESS_KEY, type AccessRule } from './decorators.js';

export { extractKey } from './authenticator.js';

export function accessRule(reflector: Reflector, ctx: ExecutionContext): AccessRule {
  return reflector.getAllAndOverride<AccessRule>(ACCESS_KEY, [ctx.getHandler(), ctx.getClass()]) ?? { kind: 'key' };
}

/** X-Data-Delay and X-Tier, on every response to an authenticated caller. */
export function writeAccountHeaders(reply: FastifyReply, account: Account, policy: AccessPolicy): void {
  void reply.header('X-Data-Delay', String(policy.delaySeconds(account)));
  void reply.header('X-Tier', account.tier);
}

/**
 * First global guard: checks the credentials a route needs (through the Authenticator). Routes are closed
 * unless marked @Public or @OptionalKey. Sets X-Data-Delay and X-Tier for authenticated callers.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: Authenticator,
    private readonly policy: AccessPolicy,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const rule = accessRule(this.reflector, ctx);
    if (rule.kind === 'public') return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (rule.kind === 'admin') {
      if (rule.local && this.config.metricsAllowLocal && isDirectLocal(req.socket.remoteAddress, req.headers)) return true;
      await this.auth.authenticateAdmin(req);
      return true;
    }
    const account =
      rule.kind === 'optional-key' ? await this.auth.authenticate(req, { optional: true }) : await this.auth.authenticate(req);
    if (!account) return true;
    req.account = account;
    writeAccountHeaders(ctx.switchToHttp().getResponse<FastifyReply>(), account, this.policy);
    return true;
  }
}

/** Third global guard: the route's feature, checked against the caller's tier and account flags. */
@Injectable()
export class FeatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly policy: AccessPolicy,
  ) {}

  canActivate(ctx: ExecutionContext): boolean {
    const rule = accessRule(this.reflector, ctx);
    if (rule.kind !== 'key' || !rule.feature) return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (!req.account) throw new ApiError('unauthorized', 'Missing API key');
    this.policy.assertFeature(req.account, rule.feature);
    return true;
  }
}
