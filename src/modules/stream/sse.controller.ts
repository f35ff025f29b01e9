import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequiresFeature } from '../../common/auth/decorators.js';
import { StreamQuery } from './dto/stream.query.js';
import { StreamAccess } from './stream-access.js';
import { StreamClient, type Frame, type Transport } from './stream-client.js';
import { HEARTBEAT_MS, StreamHub } from './stream-hub.js';

class SseTransport implements Transport {
  constructor(private readonly raw: FastifyReply['raw']) {}
  write(f: Frame): boolean {
    return this.raw.write(`id: ${f.id}\nevent: ${f.event}\ndata: ${f.data}\n\n`);
  }
  buffered(): number {
    return this.raw.writableLength;
  }
  onDrain(fn: () => void): void {
    this.raw.on('drain', fn);
  }
  close(reason?: { code: string; message: string }): void {
    if (reason && !this.raw.writableEnded) this.raw.write(`event: error\ndata: ${JSON.stringify(reason)}\n\n`);
    this.raw.end();
  }
}

const DESCRIPTION = `Server-Sent Events. The key may be sent as \`?api_key=\` (EventSource cannot set headers). Events: \`connected\`, \`snapshot\` (chunks of at most 1000 items), \`snapshot:complete\`, \`odds:update\` / \`odds:locked\` / \`odds:removed\`, \`ev:detected\` / \`ev:expired\`, \`arb:detected\` / \`arb:expired\`, \`middles:detected\` / \`middles:expired\`, \`low_hold:detected\` / \`low_hold:expired\`, \`gamestate:snapshot\` / \`gamestate:update\` / \`gamestate:removed\` (enterprise), \`heartbeat\` every ${HEARTBEAT_MS / 1000} s, and \`error\` before the server closes a stream (\`backpressure\` for a client too far behind, \`too_many_streams\` when a newer stream of the same key takes its place). Every frame has an id: reconnect with \`Last-Event-ID\` to get what was missed from a two-minute replay buffer, or a fresh snapshot when it is older (\`connected.resumed\` says which). Streams per key: hobby 1, pro 2, sharp 5, enterprise 20; the free tier has no streaming.`;

@ApiTags('Streaming')
@Controller('stream')
export class SseController {
  constructor(
    private readonly hub: StreamHub,
    private readonly access: StreamAccess,
  ) {}

  private async run(req: FastifyRequest, reply: FastifyReply, q: StreamQuery, channels?: string[], events?: string[]): Promise<void> {
    const account = req.account!;
    const filter = this.access.filter(account, {
      channels: channels ?? q.channel ?? q.channels ?? q.type,
      sport: q.sport,
      league: q.league,
      sportsbook: q.sportsbook,
      add_sportsbook: q.add_sportsbook,
      market: q.market,
      events: events ?? [...(q.event ?? []), ...(q.event_id ?? []), ...(q.eventId ?? [])],
      min_ev: q.min_ev,
      min_profit: q.min_profit,
    });
    const headers: Record<string, string | number | string[]> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | number | string[];
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    raw.write('retry: 3000\n\n');
    const client = new StreamClient(this.hub.newStreamId(), account, filter, new SseTransport(raw));
    raw.on('close', () => client.close());
    const last = (req.headers['last-event-id'] as string | undefined) ?? q.last_event_id;
    await this.hub.open(client, last);
  }

  @Get()
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'The live stream (SSE)', description: DESCRIPTION })
  stream(@Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q);
  }

  @Get('odds')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'The odds channel (same as /stream?channel=odds)' })
  odds(@Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q, ['odds']);
  }

  @Get('opportunities')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'The opportunities channel (same as /stream?channel=opportunities)' })
  opportunities(@Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q, ['opportunities']);
  }

  @Get('gamestate')
  @RequiresFeature('game_state')
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'Live game state (enterprise; same as /stream?channel=gamestate)' })
  gamestate(@Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q, ['gamestate']);
  }

  @Get('all')
  @RequiresFeature('streaming')
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'Every channel the tier has (same as /stream?channel=all)' })
  all(@Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q, ['all']);
  }

  @Get('events/:eventId')
  @RequiresFeature('streaming')
  @ApiParam({ name: 'eventId', example: 'nba_celtics_lakers_2026-11-22_b3' })
  @ApiProduces('text/event-stream')
  @ApiOperation({ summary: 'One event\'s prices and opportunities' })
  event(@Param('eventId') id: string, @Query() q: StreamQuery, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.run(req, reply, q, ['odds', 'opportunities'], [id]);
  }
}
