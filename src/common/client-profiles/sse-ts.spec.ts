import { describe, expect, it } from '@jest/globals';
import { TsSseEncoder } from './sse-ts.js';

const CHANNELS: Record<string, string> = { arbitrage: 'arbitrage', 'arb:detected': 'arbitrage', 'arb:expired': 'arbitrage', ev: 'ev' };
const T = '2026-11-22T12:00:00.000Z';
const encoder = () =>
  new TsSseEncoder(
    (n) => CHANNELS[n],
    () => T,
  );

describe('the TypeScript client SSE frames', () => {
  it('the first snapshot frame is initial, the later ones snapshot; named frames pass as they are', () => {
    const e = encoder();
    expect(e.encode({ id: '5-c', event: 'connected', data: '{"stream_id":"s"}' })).toBe(
      'id: 5-c\nevent: connected\ndata: {"stream_id":"s"}\n\n',
    );
    expect(e.encode({ id: '5-s0', event: 'snapshot', data: '{"odds":[{"id":"a"}],"count":1,"total":2,"offset":0,"has_more":true}' })).toBe(
      `id: 5-s0\ndata: {"type":"initial","data":[{"id":"a"}],"timestamp":"${T}"}\n\n`,
    );
    expect(e.encode({ id: '5-s1', event: 'snapshot', data: '{"odds":[{"id":"b"}],"count":1,"total":2,"offset":1,"has_more":false}' })).toBe(
      `id: 5-s1\ndata: {"type":"snapshot","data":[{"id":"b"}],"timestamp":"${T}"}\n\n`,
    );
    expect(
      e.encode({ id: '5-s2', event: 'snapshot', data: '{"type":"arbitrage","kind":"arbitrage","opportunities":[{"id":"x"}],"count":1}' }),
    ).toBe(`id: 5-s2\ndata: {"type":"snapshot","data":{"arbitrage":[{"id":"x"}]},"timestamp":"${T}"}\n\n`);
    // Not empty: no extra initial before snapshot:complete.
    expect(e.encode({ id: '5-sc', event: 'snapshot:complete', data: '{}' })).toBe('id: 5-sc\nevent: snapshot:complete\ndata: {}\n\n');
    expect(e.encode({ id: '6-h0', event: 'heartbeat', data: '{"timestamp":"x"}' })).toBe(
      'id: 6-h0\nevent: heartbeat\ndata: {"timestamp":"x"}\n\n',
    );
  });

  it('an empty snapshot: an initial with [] just before snapshot:complete', () => {
    expect(encoder().encode({ id: '7-sc', event: 'snapshot:complete', data: '{}' })).toBe(
      `id: 7-sc\ndata: {"type":"initial","data":[],"timestamp":"${T}"}\n\nid: 7-sc\nevent: snapshot:complete\ndata: {}\n\n`,
    );
  });

  it('live frames: rows, removed stubs, opportunities by channel; odds:locked (a repeat) left out', () => {
    const e = encoder();
    const frame = (event: string, data: string) => e.encode({ id: '9-0', event, data });
    expect(frame('odds:update', '{"odds":[{"id":"a","is_active":false}],"count":1,"book":"dk","partial":false}')).toBe(
      `id: 9-0\ndata: {"type":"odds:update","data":[{"id":"a","is_active":false}],"timestamp":"${T}"}\n\n`,
    );
    expect(frame('odds:locked', '{"odds":[{"id":"a"}],"count":1,"book":"dk","partial":false}')).toBe('');
    expect(frame('odds:removed', '{"ids":["a","b"],"count":2,"book":"dk"}')).toBe(
      `id: 9-0\ndata: {"type":"odds:removed","data":[{"id":"a","sportsbook":"dk","removed":true},{"id":"b","sportsbook":"dk","removed":true}],"timestamp":"${T}"}\n\n`,
    );
    expect(frame('arb:detected', '[{"id":"x"}]')).toBe(
      `id: 9-0\ndata: {"type":"arb:detected","data":{"arbitrage":[{"id":"x"}]},"timestamp":"${T}"}\n\n`,
    );
    expect(frame('arb:expired', '{"expired":["x"],"timestamp":"y"}')).toBe(
      `id: 9-0\ndata: {"type":"arb:expired","data":{"expired":{"arbitrage":["x"]}},"timestamp":"${T}"}\n\n`,
    );
    expect(frame('gamestate:update', '{"event_id":"g"}')).toBe(
      `id: 9-0\ndata: {"type":"gamestate:update","data":{"event_id":"g"},"timestamp":"${T}"}\n\n`,
    );
  });

  it('a live frame is encoded once for every stream that shares it (its memo)', () => {
    const memo: { ts?: string } = {};
    const f = { id: '3-0', event: 'arb:detected', data: '[]' };
    let calls = 0;
    const counting = new TsSseEncoder(
      (n) => CHANNELS[n],
      () => `t${++calls}`,
    );
    const first = counting.encode(f, memo);
    expect(encoder().encode(f, memo)).toBe(first);
    expect(calls).toBe(1);
  });
});
