import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { restProfile } from './profiles.js';
import { CLIENT_SHAPE, renderShape, type ShapeName } from './rest-shapes.js';

/**
 * Applies the client profiles to REST answers, for every route in one place: a route marked `@ClientShape` is
 * rendered for the request's profile and says which in `X-Client-Profile`. An unknown explicit profile is a 400
 * on every route (before the handler runs), so a typo never passes unnoticed.
 */
@Injectable()
export class ClientProfileInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const http = ctx.switchToHttp();
    const profile = restProfile(http.getRequest<FastifyRequest>().headers);
    const shape = this.reflector.get<ShapeName | undefined>(CLIENT_SHAPE, ctx.getHandler());
    if (!shape) return next.handle();
    void http.getResponse<FastifyReply>().header('X-Client-Profile', profile);
    return next.handle().pipe(map((body) => renderShape(shape, profile, body)));
  }
}
