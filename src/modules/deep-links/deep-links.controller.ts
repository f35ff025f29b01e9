import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiNotFoundResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OptionalKey, RequiresFeature } from '../../common/auth/decorators.js';
import { ApiDataResponse } from '../../common/http/api-responses.js';
import { envelope } from '../../common/http/envelope.js';
import { Clock } from '../../common/time/clock.js';
import { DeepLinkQuery, DeepLinksBatchBody } from './dto/deep-links.dto.js';
import { DeepLinksService } from './deep-links.service.js';

@ApiTags('Deep links')
@Controller()
export class DeepLinksController {
  constructor(
    private readonly links: DeepLinksService,
    private readonly clock: Clock,
  ) {}

  @Get('deeplink/:id')
  @OptionalKey()
  @ApiParam({ name: 'id', description: 'An odds id, an opportunity id or a futures price id' })
  @ApiOperation({
    summary: 'Open a price at its book (302)',
    description:
      "Redirects to the book's bet slip (`X-Deep-Link-Type: outcome`), event page (`event`) or home page (`homepage`), the most precise level the book's template (config/deep-links.json) allows with the book's own ids. `state` routes state-specific books; `book` picks one of an opportunity's books. `Cache-Control: private, max-age=60`. Unknown id: 404 (or the book's home page with `fallback=true&book=`). Works without a key (keyless rate limit).",
  })
  @ApiFoundResponse({ description: "Location: the book's URL; X-Deep-Link-Type: outcome | event | homepage; X-Deep-Link-Book" })
  @ApiNotFoundResponse({ description: 'Unknown or expired id, or its book has no link template (`not_found`)' })
  redirect(@Param('id') id: string, @Query() q: DeepLinkQuery, @Res() reply: FastifyReply): void {
    const r = this.links.resolve(id, q);
    void reply
      .header('Cache-Control', 'private, max-age=60')
      .header('X-Deep-Link-Type', r.type)
      .header('X-Deep-Link-Book', r.book)
      .redirect(r.url, 302);
  }

  @Post('deeplinks/batch')
  @RequiresFeature('deep_links_batch')
  @HttpCode(200)
  @ApiDataResponse(
    { type: 'object', additionalProperties: { type: 'string', nullable: true } },
    { description: 'Each id mapped to its resolver path (GET /deeplink/{id}, with ?state=), or null when unknown or without a template' },
  )
  @ApiOperation({
    summary: 'Deep links for up to 500 ids (hobby and up)',
    description:
      '`data` maps each id to its resolver path (`/api/v1/deeplink/{id}`, with `?state=` when given), or null when the id is unknown or none of its books has a link template. More than 500 ids, or none: 400.',
  })
  batch(@Body() body: DeepLinksBatchBody) {
    return envelope(this.links.batch(body.ids, body.state), { updated_at: this.clock.iso() });
  }
}
