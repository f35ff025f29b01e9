import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Account } from '../../common/auth/account.js';
import { CurrentAccount } from '../../common/auth/current-account.decorator.js';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { sseProfile } from '../../common/client-profiles/profiles.js';
import { TsSseEncoder } from '../../common/client-profiles/sse-ts.js';
import { ApiTextResponse } from '../../common/http/api-responses.js';
import { StreamQuery } from './dto/stream.query.js';
import { StreamAccess } from './stream-access.js';
import { HEARTBEAT_MS, MAX_SNAPSHOT_ODDS, StreamHub } from './stream-hub.js';
import { SseTransport } from './transports.js';
import { dict } from '../../domain/dict.js';

const DESCRIPTION = `Server-Sent Events. The key may be sent as \`?api_key=\` (EventSource cannot set headers). Events: \`connected\`, \`snapshot\` (frames of at most 256 KB: up to 1000 prices or 300 opportunities; prices first, then each opportunity type, then game states; a filter whose snapshot would exceed ${MAX_SNAPSHOT_ODDS} prices is refused with 400), \`snapshot:complete\`, \`odds:update\` / \`odds:locked\` / \`odds:removed\`, each opportunity type's \`<name>:detected\` / \`<name>:expired\` (such as \`arb:detected\`; the table "Opportunity types" in the API description lists them), \`gamestate:snapshot\` / \`gamestate:update\` / \`gamestate:removed\` (enterprise), \`heartbeat\` every ${HEARTBEAT_MS / 1000} s, and \`error\` before the server closes a stream (\`backpressure\` for a client too far behind, \`too_many_streams\` when a newer stream of the same key takes its place, \`unauthorized\` within 5 s of the key being revoked or expiring). Every frame has an id: reconnect with \`Last-Event-ID\` to get what was missed from a two-minute replay buffer, or a fresh snapshot when it is older (\`connected.resumed\` says which). Defaults: \`min_ev\` 2.0 (the product's stream default; \`/opportunities/ev\` defaults to 0) and \`min_profit\` 0.5 (as \`/opportunities/arbitrage\`); \`connected.filters\` states the values in force. Streams per key: hobby 1, pro 2, sharp 5, enterprise 20; the free tier has no streaming.`;

const SSE_RESPONSE = () =>
  ApiTextResponse(
    'text/event-stream',
    'A stream of Server-Sent Events: `event:` names the kind, `id:` the frame, `data:` one JSON object (see the operation description)',
  );

@ApiTags('Streaming')
@Controller('stream')
export class SseController {
  constructor(
    private readonly hub: StreamHub,
    private readonly access: StreamAccess,
  ) {}

  /** `lastEventId`: the Last-Event-ID header (a reconnecting EventSource sends it), else `?last_event_id=`. */
  private async run(
    account: Account,
    lastEventId: string | undefined,
    reply: FastifyReply,
    q: StreamQuery,
    channels?: string[],
    events?: string[],
  ): Promise<void> {
    const filter = this.access.filter(account, {
      channels: channels ?? q.channel ?? q.channels ?? q.type,
      sport: q.sport,
      league: q.league,
      sportsbook: q.sportsbook,
      add_sportsbook: q.add_sportsbook,
      market: q.market,
      events: events ?? [...(q.event ?? []), ...(q.event_id ?? []), ...(q.eventId ?? [])],
      live: q.live,
      min_ev: q.min_ev,
      min_profit: q.min_profit,
    });
    this.hub.assertSnapshotSize(filter);
    const profile = sseProfile(reply.request.headers, q);
    const headers: Record<string, string | number | string[]> = dict();
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | number | string[];
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Client-Profile': profile,
    });
    raw.write('retry: 3000\n\n');
    const encoder = profile === 'ts' ? new TsSseEncoder((name) => this.hub.channelOf(name)) : null;
    const client = this.hub.client(account, filter, new SseTransport(raw, undefined, encoder));
    await this.hub.open(client, lastEventId ?? q.last_event_id);
  }

  @Get()
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: 'The live stream (SSE)', description: DESCRIPTION })
  stream(
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q);
  }

  @Get('odds')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: 'The odds channel (same as /stream?channel=odds)' })
  odds(
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q, ['odds']);
  }

  @Get('opportunities')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: 'The opportunities channel (same as /stream?channel=opportunities)' })
  opportunities(
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q, ['opportunities']);
  }

  @Get('gamestate')
  @RequiresFeature('game_state')
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: 'Live game state (enterprise; same as /stream?channel=gamestate)' })
  gamestate(
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q, ['gamestate']);
  }

  @Get('all')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: 'Every channel the tier has (same as /stream?channel=all)' })
  all(
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q, ['all']);
  }

  @Get('events/:eventId')
  @RequiresFeature('streaming')
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiProduces('text/event-stream')
  @SSE_RESPONSE()
  @ApiOperation({ summary: "One event's prices and opportunities" })
  event(
    @Param('eventId') id: string,
    @Query() q: StreamQuery,
    @CurrentAccount() account: Account,
    @Headers('last-event-id') last: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.run(account, last, reply, q, ['odds', 'opportunities'], [id]);
  }
}
