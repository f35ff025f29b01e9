import { Injectable, RequestMethod, type OnApplicationBootstrap } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ACCESS_KEY, type AccessRule } from '../../common/auth/decorators.js';

/** A route path with its parameters made anonymous: `/gamestate/:sport` and `/gamestate/{sport}` -> `/gamestate/:`. */
export function routeKey(path: string): string {
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => (s.startsWith(':') || /^\{.+\}$/.test(s) ? ':' : s));
  return `/${segments.join('/')}`;
}

/**
 * The access rule each GET (and POST) route declares (@Public, @OptionalKey, @RequiresKey, @RequiresFeature), read from
 * the controllers' own metadata, so MCP names the tier a tool needs from the same declaration the route's
 * guard enforces. Paths are relative to the API prefix.
 */
@Injectable()
export class RouteAccess implements OnApplicationBootstrap {
  private readonly rules = new Map<string, AccessRule>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getControllers()) {
      const type = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!type?.prototype) continue;
      const base = this.paths(Reflect.getMetadata(PATH_METADATA, type));
      for (const name of this.scanner.getAllMethodNames(type.prototype)) {
        const handler = (type.prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method !== RequestMethod.GET && method !== RequestMethod.POST) continue;
        const verb = method === RequestMethod.GET ? '' : 'POST ';
        const rule: AccessRule = this.reflector.getAllAndOverride<AccessRule>(ACCESS_KEY, [handler, type]) ?? { kind: 'key' };
        for (const b of base)
          for (const p of this.paths(Reflect.getMetadata(PATH_METADATA, handler))) this.rules.set(verb + routeKey(`${b}/${p}`), rule);
      }
    }
  }

  private paths(meta: unknown): string[] {
    if (Array.isArray(meta)) return meta.map(String);
    return [typeof meta === 'string' ? meta : ''];
  }

  /** The rule of `GET path` (or `POST path`), or undefined when no route serves it. */
  rule(path: string, method: 'GET' | 'POST' = 'GET'): AccessRule | undefined {
    return this.rules.get((method === 'GET' ? '' : 'POST ') + routeKey(path));
  }
}
