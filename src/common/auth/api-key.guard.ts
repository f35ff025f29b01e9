import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminToken } from '../admin/admin-token.js';
import { ApiKeysService } from '../../modules/accounts/api-keys.service.js';
import { ApiError } from '../http/api-error.js';
import { AccessPolicy } from './access-policy.js';
import { ACCESS_KEY, type AccessRule } from './decorators.js';

/** The key sent with a request: X-API-Key, then Authorization: Bearer, then ?api_key= (spec part 5). */
export function extractKey(req: Pick<FastifyRequest, 'headers' | 'query'>): string | undefined {
  const header = req.headers['x-api-key'];
  const h = Array.isArray(header) ? header[0] : header;
  if (h && h.trim()) return h.trim();
  const auth = req.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m?.[1]) return m[1].trim();
  }
  const q = (req.query as Record<string, unknown> | undefined)?.api_key;
  const qv = Array.isArray(q) ? q[0] : q;
  if (typeof qv === 'string' && qv.trim()) return qv.trim();
  return undefined;
}

export function accessRule(reflector: Reflector, ctx: ExecutionContext): AccessRule {
  return reflector.getAllAndOverride<AccessRule>(ACCESS_KEY, [ctx.getHandler(), ctx.getClass()]) ?? { kind: 'key' };
}

/**
 * First global guard: resolves the key into an account. Routes are closed unless marked @Public or
 * @OptionalKey. Sets X-Data-Delay for authenticated callers.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly policy: AccessPolicy,
    private readonly admin: AdminToken,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const rule = accessRule(this.reflector, ctx);
    if (rule.kind === 'public') return true;
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    if (rule.kind === 'admin') {
      const token = req.headers['x-admin-token'];
      if (!this.admin.matches(Array.isArray(token) ? token[0] : token)) throw new ApiError('unauthorized', 'Missing or wrong X-Admin-Token');
      return true;
    }
    const key = extractKey(req);
    if (!key) {
      if (rule.kind === 'optional-key') return true;
      throw new ApiError('unauthorized', 'Missing API key: send it in the X-API-Key header, as Authorization: Bearer <key>, or as ?api_key=');
    }
    const account = key.length <= 200 ? await this.keys.authenticate(key) : null;
    if (!account) throw new ApiError('unauthorized', 'Invalid or revoked API key');
    req.account = account;
    const reply = ctx.switchToHttp().getResponse<FastifyReply>();
    void reply.header('X-Data-Delay', String(this.policy.delaySeconds(account)));
    void reply.header('X-Tier', account.tier);
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
