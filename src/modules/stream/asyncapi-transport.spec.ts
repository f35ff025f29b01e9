import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import type { WebSocket } from 'ws';
import { AsyncApiTransport, asyncApiErrorCode, withState } from './asyncapi-transport.js';

/** A stand-in for an open `ws` WebSocket: records what is sent and how it is closed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<Record<string, any>> = [];
  closedWith: [number, string | undefined] | null = null;
  send(data: string | Buffer): void {
    this.sent.push(JSON.parse(String(data)) as Record<string, any>);
  }
  close(code: number, reason?: string): void {
    this.closedWith = [code, reason];
    this.readyState = 2;
  }
  terminate(): void {
    this.readyState = 3;
    this.emit('close');
  }
}

const TS = '2026-11-22T12:00:00.000Z';
const SEQ = 1763812800000123;
const setup = () => {
  const socket = new FakeSocket();
  const transport = new AsyncApiTransport(socket as unknown as WebSocket, {
    timestamp: () => TS,
    channelOfKind: new Map([
      ['ev', 'ev'],
      ['arbitrage', 'arbitrage'],
    ]),
    graceMs: 10,
  });
  return { socket, transport };
};
const row = (id: string, book: string) => ({ id, sportsbook: book, odds_american: -110, deep_link: `/api/v1/deeplink/${id}` });

describe('AsyncApiTransport: the hub frames as the AsyncAPI messages', () => {
  it('numbers messages from 1, carries global_seq, and reshapes odds frames to {source, data[], count}', () => {
    const { socket, transport } = setup();
    const connected = { stream_id: 'str_1', tier: 'pro', channel: 'all', filters: {}, resumed: false, heartbeat_seconds: 30 };
    transport.write({
      id: `${SEQ}-c`,
      event: 'connected',
      data: JSON.stringify({ ...connected, message: 'hi', features: { ev: true }, books: { max: 15, allowed: ['a'] }, channels: null }),
    });
    transport.write({
      id: `${SEQ + 1}-0`,
      event: 'odds:update',
      data: JSON.stringify({ odds: [row('a1', 'fanduel')], count: 1, book: 'fanduel', partial: false }),
    });
    transport.write({ id: `${SEQ + 1}-1`, event: 'odds:removed', data: JSON.stringify({ ids: ['x', 'y'], count: 2, book: 'fanduel' }) });
    transport.write({ id: `${SEQ + 1}-2`, event: 'arb:detected', data: '[{"id":"ab"}]' });
    transport.write({ id: `${SEQ + 1}-3`, event: 'arb:expired', data: '{"expired":["ab"],"timestamp":"t"}' });
    transport.write({ id: `${SEQ + 1}-h0`, event: 'heartbeat', data: '{"timestamp":"t","streams":1}' });
    transport.message('pong');
    expect(socket.sent).toEqual([
      {
        type: 'connected',
        seq: 1,
        global_seq: SEQ,
        timestamp: TS,
        message: 'hi',
        stream_id: 'str_1',
        tier: 'pro',
        features: { ev: true },
        channels: null,
        books: { max: 15, allowed: ['a'] },
        resumed: false,
        heartbeat_seconds: 30,
      },
      { type: 'odds:update', seq: 2, global_seq: SEQ + 1, timestamp: TS, source: 'fanduel', data: [row('a1', 'fanduel')], count: 1 },
      { type: 'odds:removed', seq: 3, global_seq: SEQ + 1, timestamp: TS, source: 'fanduel', ids: ['x', 'y'], count: 2 },
      { type: 'arb:detected', seq: 4, global_seq: SEQ + 1, timestamp: TS, data: [{ id: 'ab' }] },
      { type: 'arb:expired', seq: 5, global_seq: SEQ + 1, timestamp: TS, data: { expired: ['ab'], timestamp: 't' } },
      { type: 'heartbeat', seq: 6, timestamp: TS },
      { type: 'pong', seq: 7, timestamp: TS },
    ]);
  });

  it('turns a snapshot into opportunities_snapshot per type (chunked), initial per book, then snapshot:complete', () => {
    const { socket, transport } = setup();
    const opp = (kind: string, items: unknown[], hasMore: boolean) =>
      JSON.stringify({ type: kind, kind, opportunities: items, count: items.length, total: 3, offset: 0, has_more: hasMore });
    transport.write({ id: `${SEQ}-s0`, event: 'snapshot', data: opp('ev', [], false) });
    transport.write({ id: `${SEQ}-s1`, event: 'snapshot', data: opp('arbitrage', [{ id: 1 }, { id: 2 }], true) });
    transport.write({ id: `${SEQ}-s2`, event: 'snapshot', data: opp('arbitrage', [{ id: 3 }], false) });
    const rows = [row('a', 'draftkings'), row('b', 'draftkings'), row('c', 'fanduel')];
    transport.write({
      id: `${SEQ}-s3`,
      event: 'snapshot',
      data: JSON.stringify({ odds: rows, count: 3, total: 3, offset: 0, has_more: false }),
    });
    transport.write({
      id: `${SEQ}-sc`,
      event: 'snapshot:complete',
      data: '{"status":"ready","books":["draftkings","fanduel"],"total_odds":3}',
    });
    expect(socket.sent.map(({ timestamp: _t, ...m }) => m)).toEqual([
      { type: 'opportunities_snapshot', seq: 1, global_seq: SEQ, ev: [] },
      { type: 'opportunities_snapshot', seq: 2, global_seq: SEQ, arbitrage: [{ id: 1 }, { id: 2 }], chunk: 1, totalChunks: 2 },
      { type: 'opportunities_snapshot', seq: 3, global_seq: SEQ, arbitrage: [{ id: 3 }], chunk: 2, totalChunks: 2 },
      { type: 'initial', seq: 4, global_seq: SEQ, source: 'draftkings', data: [rows[0], rows[1]], count: 2 },
      { type: 'initial', seq: 5, global_seq: SEQ, source: 'fanduel', data: [rows[2]], count: 1 },
      { type: 'snapshot:complete', seq: 6, global_seq: SEQ, books: ['draftkings', 'fanduel'], resumed: false, progressive: true },
    ]);
    expect(transport.completed).toBe(1);
  });

  it('splits a book past 1000 rows; skips the prices of a resume=true snapshot; tags replays; stamps the state on deep links', () => {
    const { socket, transport } = setup();
    const many = Array.from({ length: 2500 }, (_, i) => row(`r${i}`, 'pinnacle'));
    transport.write({ id: `${SEQ}-s0`, event: 'snapshot', data: JSON.stringify({ odds: many, count: 2500 }) });
    expect(socket.sent.map((m) => [m.type, m.source, m.count])).toEqual([
      ['initial', 'pinnacle', 1000],
      ['initial', 'pinnacle', 1000],
      ['initial', 'pinnacle', 500],
    ]);
    socket.sent.length = 0;
    transport.skipOdds = true;
    transport.write({ id: `${SEQ}-s0`, event: 'snapshot', data: JSON.stringify({ odds: many.slice(0, 3), count: 3 }) });
    transport.write({ id: `${SEQ}-sc`, event: 'snapshot:complete', data: '{"books":["pinnacle"]}' });
    expect(socket.sent).toEqual([expect.objectContaining({ type: 'snapshot:complete', books: [], resumed: true, progressive: false })]);
    socket.sent.length = 0;
    transport.replayUpTo = SEQ + 1;
    transport.state = 'nj';
    const update = (seq: number) => ({
      id: `${seq}-0`,
      event: 'odds:update',
      data: JSON.stringify({ odds: [row('z', 'pinnacle')], count: 1, book: 'pinnacle' }),
    });
    transport.write(update(SEQ + 1));
    transport.write(update(SEQ + 2));
    expect(socket.sent.map((m) => [m.global_seq, m.replay, m.data[0].deep_link])).toEqual([
      [SEQ + 1, true, '/api/v1/deeplink/z?state=nj'],
      [SEQ + 2, undefined, '/api/v1/deeplink/z?state=nj'],
    ]);
  });

  it('closes with an error message in the envelope and the close code (a refused filter: invalid_filter, 4000)', () => {
    const { socket, transport } = setup();
    transport.close({ code: 'invalid_request', message: 'Invalid parameter "min_odds"' });
    expect(socket.sent).toEqual([
      { type: 'error', seq: 1, timestamp: TS, code: 'invalid_filter', message: 'Invalid parameter "min_odds"' },
    ]);
    expect(socket.closedWith).toEqual([4000, 'invalid_filter']);
    expect(transport.write({ id: '1-0', event: 'odds:update', data: '{}' })).toBe(false);
    const other = setup();
    other.transport.close({ code: 'unauthorized', message: 'revoked' });
    expect(other.socket.closedWith).toEqual([4001, 'unauthorized']);
    expect(asyncApiErrorCode('too_many_streams')).toBe('too_many_streams');
  });

  it('withState: resolver paths only, once', () => {
    const json = JSON.stringify({ a: '/api/v1/deeplink/x%2Fy', b: '/api/v1/deeplink/q?state=ny', c: 'https://book.example/x', d: null });
    expect(JSON.parse(withState(json, 'pa'))).toEqual({
      a: '/api/v1/deeplink/x%2Fy?state=pa',
      b: '/api/v1/deeplink/q?state=ny',
      c: 'https://book.example/x',
      d: null,
    });
    expect(withState(json, undefined)).toBe(json);
  });
});
