import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EventSource } from 'eventsource';
import { ManualClock } from '../../src/common/time/clock.js';
import type { Quote } from '../../src/domain/types.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { away, home, NOW } from '../factories/detection.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The client profiles (README "Client profiles"): each official client is sent exactly what it sends, and its
 * answer is parsed by that client's rules, written here from its public source (never imported):
 * - Python (0.2.x and 0.4.x): `User-Agent: sharpapi-python/...`, `X-API-Key`, `Content-Type: application/json`;
 *   `data` a list -> each item validated as the model, an object -> validated as one item (pydantic: required
 *   fields present with their types, optional ones null or of their type).
 * - TypeScript SSE: `?type=...&api_key=...`; only unnamed frames reach its handler, parsed as `{type, data,
 *   timestamp}` (`initial` is the snapshot, any other type an update) and the named `heartbeat`.
 */
const moneyline = (book: string, h: number, a: number): Quote[] => [home(book, { american: h }), away(book, { american: a })];
const spread = (book: string, line: number): Quote[] => [
  home(book, { american: -110 }, { marketType: 'point_spread', line }),
  away(book, { american: -110 }, { marketType: 'point_spread', line: -line }),
];

type J = Record<string, any>;

/** pydantic's rules for the fields a model declares: required ones present and typed, optional ones null or typed. */
type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const int: Check = (v) => Number.isInteger(v);
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const strList: Check = (v) => Array.isArray(v) && v.every(str);
function validate(item: unknown, required: Record<string, Check>, optional: Record<string, Check> = {}): string[] {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return [`not an object: ${JSON.stringify(item)?.slice(0, 80)}`];
  const o = item as J;
  const errors: string[] = [];
  for (const [k, ok] of Object.entries(required)) if (!(k in o) || !ok(o[k])) errors.push(`${k}: ${JSON.stringify(o[k])}`);
  for (const [k, ok] of Object.entries(optional)) if (k in o && o[k] !== null && !ok(o[k])) errors.push(`${k}: ${JSON.stringify(o[k])}`);
  return errors;
}
/** The Python client's parse_response: a list is validated item by item, anything else as one item. */
function pythonParse(body: J, required: Record<string, Check>, optional?: Record<string, Check>): string[] {
  const data = body.data;
  return (Array.isArray(data) ? data : [data]).flatMap((x) => validate(x, required, optional));
}
/** Market, as both Python lines declare it. */
const MARKET = { market_type: str };
const MARKET_OPTIONAL = { market_label: str, selection_count: int, book_count: int, books: strList };
/** OddsLine's required fields (0.2.6 and 0.4.1 declare the same). */
const ODDS_LINE = {
  id: str,
  sportsbook: str,
  event_id: str,
  sport: str,
  league: str,
  home_team: str,
  away_team: str,
  market_type: str,
  selection: str,
  odds_american: num,
  odds_decimal: num,
  probability: num,
};

const PYTHON_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'sharpapi-python/0.2.5' };

describe('client profiles', () => {
  let t: TestApp;
  let eventId = '';

  async function call(path: string, opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const res = await fetch(`${t.url}/api/v1${path}`, {
      method: opts.method ?? 'GET',
      headers: { 'X-API-Key': KEYS.sharp, ...(opts.headers ?? {}) },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    return { status: res.status, headers: res.headers, json: (await res.json()) as J };
  }

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    const quotes = [
      ...moneyline('draftkings', 110, -130),
      ...moneyline('fanduel', -125, 104),
      ...moneyline('pinnacle', -105, -105),
      ...spread('draftkings', -2.5),
      ...spread('fanduel', -7.5),
    ];
    expect(t.app.get(IngestionService).ingest({ source: 'test', quotes }, NOW, { backfill: true }).rejected).toEqual({});
    eventId = (await call('/events?league=nfl')).json.data[0].id;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('python (User-Agent sharpapi-python/)', () => {
    it('events.markets: one Market object per market type, counted by hand', async () => {
      const names = new Map<string, string>(((await call('/markets')).json.data as J[]).map((m) => [m.id, m.name]));
      const res = await call(`/events/${eventId}/markets`, { headers: PYTHON_HEADERS });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-client-profile')).toBe('python');
      expect(pythonParse(res.json, MARKET, MARKET_OPTIONAL)).toEqual([]);
      // moneyline: 3 books, 2 selections; spreads: DK at -2.5/+2.5 and FD at -7.5/+7.5 are 4 selections of 2 books.
      expect(res.json.data).toEqual([
        {
          market_type: 'moneyline',
          market_label: names.get('moneyline'),
          selection_count: 2,
          book_count: 3,
          books: ['draftkings', 'fanduel', 'pinnacle'],
        },
        {
          market_type: 'point_spread',
          market_label: names.get('point_spread'),
          selection_count: 4,
          book_count: 2,
          books: ['draftkings', 'fanduel'],
        },
      ]);
    });

    it('the spec shape stays the default: market ids, which the Python rules refuse', async () => {
      const res = await call(`/events/${eventId}/markets`);
      expect(res.json.data).toEqual(['moneyline', 'point_spread']);
      expect(pythonParse(res.json, MARKET, MARKET_OPTIONAL)).not.toEqual([]);
    });

    it('odds.comparison and odds.batch: data is the list of the spec map’s rows, in its order', async () => {
      const spec = await call(`/odds/comparison?event_id=${eventId}`);
      const py = await call(`/odds/comparison?event_id=${eventId}`, { headers: PYTHON_HEADERS });
      expect(pythonParse(spec.json, ODDS_LINE)).not.toEqual([]);
      expect(pythonParse(py.json, ODDS_LINE)).toEqual([]);
      expect(Object.keys(spec.json.data)).toEqual(['draftkings', 'fanduel', 'pinnacle']);
      expect(py.json.data).toEqual(Object.values(spec.json.data as Record<string, J[]>).flat());
      expect(py.json.data).toHaveLength(10);

      const body = { event_ids: [eventId, 'nfl_nobody_noone_2026-11-23_b3'] };
      const specBatch = await call('/odds/batch', { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
      const pyBatch = await call('/odds/batch', { method: 'POST', body, headers: PYTHON_HEADERS });
      expect(pyBatch.status).toBe(200);
      expect(pythonParse(pyBatch.json, ODDS_LINE)).toEqual([]);
      expect(pyBatch.json.data).toEqual(specBatch.json.data[eventId]);
      expect(pyBatch.json.meta.missing).toEqual(['nfl_nobody_noone_2026-11-23_b3']);
    });

    it('X-Client-Profile chooses explicitly, over the User-Agent; an unknown profile is a 400 on any route', async () => {
      const chosen = await call(`/events/${eventId}/markets`, { headers: { 'X-Client-Profile': 'Python' } });
      expect(chosen.json.data.map((m: J) => m.market_type)).toEqual(['moneyline', 'point_spread']);
      const spec = await call(`/events/${eventId}/markets`, { headers: { ...PYTHON_HEADERS, 'X-Client-Profile': 'spec' } });
      expect(spec.json.data).toEqual(['moneyline', 'point_spread']);
      expect(spec.headers.get('x-client-profile')).toBe('spec');
      for (const path of [`/events/${eventId}/markets`, '/events', '/sports']) {
        const bad = await call(path, { headers: { 'X-Client-Profile': 'pyton' } });
        expect([path, bad.status, bad.json.error.code]).toEqual([path, 400, 'invalid_request']);
        expect(bad.json.error.message).toContain('spec, python, ts, asyncapi');
      }
    });
  });

  describe('ts (SSE with type= and no channel=)', () => {
    /** The TypeScript client's stream: onmessage (unnamed frames) and the named heartbeat; nothing else reaches it. */
    function tsStream(query: string) {
      const seen: Array<{ type: string; data: any; timestamp: string }> = [];
      const named: string[] = [];
      const es = new EventSource(`${t.url}/api/v1/stream?${query}&api_key=${KEYS.enterprise}`);
      es.onmessage = (e) => seen.push(JSON.parse(e.data as string));
      // What a test needs to know when the snapshot is over (the client itself ignores it).
      es.addEventListener('snapshot:complete', () => named.push('snapshot:complete'));
      const until = async (ok: () => boolean, what: string) => {
        for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
        if (!ok()) throw new Error(`no ${what}; got ${JSON.stringify(seen.map((s) => s.type))}`);
      };
      return { seen, named, es, until };
    }

    it('odds: one initial with the rows as data, then odds:update frames whose data are the changed rows', async () => {
      const s = tsStream('type=odds&league=nfl');
      try {
        await s.until(() => s.named.includes('snapshot:complete'), 'snapshot');
        expect(s.seen.map((f) => f.type)).toEqual(['initial']);
        const initial = s.seen[0]!;
        expect(Number.isNaN(Date.parse(initial.timestamp))).toBe(false);
        expect(initial.data).toHaveLength(10);
        for (const row of initial.data) expect(validate(row, ODDS_LINE)).toEqual([]);

        t.app.get(IngestionService).ingest({ source: 'test', quotes: moneyline('pinnacle', -108, -102) }, NOW + 1000);
        await s.until(() => s.seen.some((f) => f.type === 'odds:update'), 'odds:update');
        const update = s.seen.find((f) => f.type === 'odds:update')!;
        expect(Array.isArray(update.data)).toBe(true);
        expect(update.data.map((r: J) => [r.sportsbook, r.selection, r.odds_american]).sort()).toEqual([
          ['pinnacle', 'Buffalo Bills', -102],
          ['pinnacle', 'Kansas City Chiefs', -108],
        ]);
      } finally {
        s.es.close();
      }
    });

    it('opportunities: initial, then the rest of the snapshot as updates of {channel: [...]}, the arbitrage among them', async () => {
      const s = tsStream('type=opportunities');
      try {
        await s.until(() => s.named.includes('snapshot:complete'), 'snapshot');
        expect(s.seen[0]?.type).toBe('initial');
        expect(s.seen.slice(1).every((f) => f.type === 'snapshot')).toBe(true);
        const byChannel: Record<string, J[]> = {};
        for (const f of s.seen) for (const [k, v] of Object.entries(f.data as Record<string, J[]>)) (byChannel[k] ??= []).push(...v);
        expect(Object.keys(byChannel).sort()).toEqual(['arbitrage', 'ev', 'low_hold', 'middles']);
        // DraftKings home +110 (2.10) and FanDuel away +104 (2.04): 1/2.10 + 1/2.04 = 0.9664 < 1.
        const arb = byChannel.arbitrage?.find((a) => a.event_id === eventId && a.market_type === 'moneyline');
        expect(arb?.legs.map((l: J) => [l.sportsbook, l.odds_american]).sort()).toEqual([
          ['draftkings', 110],
          ['fanduel', 104],
        ]);
      } finally {
        s.es.close();
      }
    });

    it('an empty snapshot is still one initial, with data []', async () => {
      const s = tsStream('type=odds&league=nba');
      try {
        await s.until(() => s.named.includes('snapshot:complete'), 'snapshot');
        expect(s.seen).toEqual([{ type: 'initial', data: [], timestamp: expect.any(String) }]);
      } finally {
        s.es.close();
      }
    });

    it('channel= keeps the named events; client_profile=ts chooses the TS frames explicitly; a bad one is a 400', async () => {
      const read = async (query: string) => {
        const ctrl = new AbortController();
        const res = await fetch(`${t.url}/api/v1/stream?${query}&api_key=${KEYS.enterprise}`, { signal: ctrl.signal });
        if (res.status !== 200) return { status: res.status, text: await res.text(), profile: res.headers.get('x-client-profile') };
        let text = '';
        const reader = res.body!.getReader();
        while (!text.includes('snapshot:complete')) text += new TextDecoder().decode((await reader.read()).value);
        ctrl.abort();
        return { status: 200, text, profile: res.headers.get('x-client-profile') };
      };
      const spec = await read('channel=odds&league=nfl');
      expect(spec.profile).toBe('spec');
      expect(spec.text).toContain('event: snapshot\n');
      expect(spec.text).not.toContain('"type":"initial"');
      const chosen = await read('channel=odds&league=nfl&client_profile=ts');
      expect(chosen.profile).toBe('ts');
      expect(chosen.text).toMatch(/\ndata: \{"type":"initial","data":\[/);
      const bad = await read('type=odds&client_profile=typescript');
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text).error.code).toBe('invalid_request');
    });
  });
});
