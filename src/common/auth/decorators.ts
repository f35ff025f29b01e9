import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiHeader, ApiSecurity, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Feature } from '../../config/tiers.js';

export const ACCESS_KEY = 'odds:access';

export type AccessRule =
  { kind: 'public' } | { kind: 'optional-key' } | { kind: 'admin'; local?: boolean } | { kind: 'key'; feature?: Feature };

/** The names of the security schemes declared in openapi.ts (the Authorize dialog of Swagger UI). */
export const SECURITY_SCHEMES = { keyHeader: 'ApiKeyHeader', bearer: 'BearerAuth', keyQuery: 'ApiKeyQuery', admin: 'AdminToken' } as const;

/**
 * The three ways to send a key, as OpenAPI security requirements (any one of them). Built anew for every route:
 * `ApiSecurity` keeps its requirement list in the decorator's closure and appends the method's existing list to
 * it on each use, so one decorator instance shared by many routes would repeat the entries route after route.
 */
const keySecurity = () => [
  ApiSecurity(SECURITY_SCHEMES.keyHeader),
  ApiSecurity(SECURITY_SCHEMES.bearer),
  ApiSecurity(SECURITY_SCHEMES.keyQuery),
];

const keyResponses = () => [
  ApiUnauthorizedResponse({ description: 'Missing or invalid API key (`unauthorized`)' }),
  ApiTooManyRequestsResponse({ description: 'Rate limit exceeded (`rate_limited`), with Retry-After' }),
];

/** No key needed and no rate limit (health, docs). */
export const Public = () => SetMetadata(ACCESS_KEY, { kind: 'public' } satisfies AccessRule);

/** The local operator channel: X-Admin-Token (from DATA_DIR/server.json or ADMIN_TOKEN); not rate limited. */
export const AdminOnly = () =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'admin' } satisfies AccessRule),
    ApiSecurity(SECURITY_SCHEMES.admin),
    ApiUnauthorizedResponse({ description: 'Missing or wrong admin token (`unauthorized`)' }),
    ApiTooManyRequestsResponse({ description: 'Too many failed authentications from this address (`rate_limited`), with Retry-After' }),
  );

/**
 * The admin token, or (METRICS_ALLOW_LOCAL, on by default) a direct request from this machine: socket peer on
 * a loopback address and no X-Forwarded-For / Forwarded / X-Real-IP header. For /metrics.
 */
export const AdminOrLocal = () =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'admin', local: true } satisfies AccessRule),
    // The admin token, or nothing (a direct request from this machine): an empty requirement makes it optional.
    ApiSecurity(SECURITY_SCHEMES.admin),
    ApiSecurity({}),
    ApiUnauthorizedResponse({ description: 'Missing or wrong admin token (`unauthorized`)' }),
    ApiTooManyRequestsResponse({ description: 'Too many failed authentications from this address (`rate_limited`), with Retry-After' }),
  );

/** Works without a key at the keyless per-IP limit; a key, if sent, must be valid. */
export const OptionalKey = () =>
  // The empty requirement: no key at all is accepted too.
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'optional-key' } satisfies AccessRule),
    ...keySecurity(),
    ApiSecurity({}),
    ...keyResponses(),
  );

/** Any valid key. Every route that is neither Public nor OptionalKey is treated as this (deny by default). */
export const RequiresKey = () =>
  applyDecorators(SetMetadata(ACCESS_KEY, { kind: 'key' } satisfies AccessRule), ...keySecurity(), ...keyResponses());

/** A valid key whose tier (and account) has the feature; otherwise 403 tier_restricted naming what is needed. */
export const RequiresFeature = (feature: Feature) =>
  applyDecorators(
    SetMetadata(ACCESS_KEY, { kind: 'key', feature } satisfies AccessRule),
    ...keySecurity(),
    ...keyResponses(),
    ApiForbiddenResponse({ description: `The tier lacks the \`${feature}\` feature (\`tier_restricted\`, with \`required_tier\`)` }),
  );

export const ApiRequestIdHeader = () =>
  ApiHeader({ name: 'X-Request-Id', required: false, description: 'Echoed when well-formed, otherwise generated' });
