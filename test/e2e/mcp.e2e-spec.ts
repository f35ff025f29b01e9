import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { CHIEFS_BILLS, knownOpportunities, nflMoneyline, NOW } from '../factories/quotes.js';

/** The board of the opportunity tests (knownOpportunities), with BetMGM also pricing Chiefs v Bills. */
const market = () => knownOpportunities({ alsoOnChiefsBills: nflMoneyline('betmgm', CHIEFS_BILLS, -115, -105) });

type J = Record<string, any>;

const ALL_TOOLS = [
  'get_players',
  'get_prediction_markets',
  'get_settlements',
  'price_parlay',
  'get_sports',
  'get_leagues',
  'get_sportsbooks',
  'get_markets',
  'get_account_info',
  'get_events',
  'get_odds',
  'get_odds_delta',
  'get_best_odds',
  'compare_odds',
  'find_low_hold',
  'find_arbitrage',
  'get_closing_lines',
  'get_line_history',
  'get_line_movement',
  'get_futures',
  'get_futures_odds',
  'compare_futures_lines',
  'find_ev_opportunities',
  'find_middles',
  'get_game_state',
  'get_splits',
];

const text = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('MCP server (end to end, the SDK client over HTTP)', () => {
  let t: TestApp;
  const clock = new ManualClock(NOW);
  const clients: Client[] = [];
  let chiefs: string;

  async function connect(key?: string, via: 'header' | 'bearer' | 'query' = 'header'): Promise<Client> {
    const url = new URL(`${t.url}/api/v1/mcp`);
    const headers: Record<string, string> = {};
    if (key && via === 'header') headers['X-API-Key'] = key;
    if (key && via === 'bearer') headers.Authorization = `Bearer ${key}`;
    if (key && via === 'query') url.searchParams.set('api_key', key);
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  /** A raw JSON-RPC POST, as curl sends it. */
  const rpc = (body: unknown, key?: string) =>
    fetch(`${t.url}/api/v1/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(key ? { 'X-API-Key': key } : {}) },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const r = t.app.get(IngestionService).ingest({ source: 'test', quotes: market() }, NOW, { backfill: true });
    expect(r.rejected).toEqual({});
    const events = await t.call('/events?team=chiefs', { key: KEYS.enterprise });
    chiefs = events.json.data[0].id;
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await t.close();
  });

  it('initializes: server info, capabilities and instructions', async () => {
    const c = await connect(KEYS.pro);
    expect(c.getServerVersion()).toMatchObject({ name: 'odds-service', version: expect.any(String) });
    expect(c.getServerCapabilities()).toMatchObject({
      tools: expect.any(Object),
      resources: expect.any(Object),
      prompts: expect.any(Object),
    });
    expect(c.getInstructions()).toContain('one request');
  });

  it('accepts the key the three ways (X-API-Key, Bearer, api_key)', async () => {
    for (const via of ['header', 'bearer', 'query'] as const) {
      const c = await connect(KEYS.hobby, via);
      const r = (await c.callTool({ name: 'get_account_info', arguments: {} })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as J).data.key.tier).toBe('hobby');
    }
  });

  it('lists every tool to every tier, each naming its tier and whether this key may call it', async () => {
    const free = await (await connect(await t.newKey('free'))).listTools();
    const sharp = await (await connect(KEYS.sharp)).listTools();
    expect(free.tools.map((x) => x.name).sort()).toEqual([...ALL_TOOLS].sort());
    expect(sharp.tools.map((x) => x.name).sort()).toEqual([...ALL_TOOLS].sort());
    const byName = (list: typeof free, name: string) => list.tools.find((x) => x.name === name)!;
    for (const tool of free.tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
      expect(tool.description).toMatch(/Calls (GET|POST) \/api\/v1\//);
      for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {}))
        expect([name, (prop as J).description]).toEqual([name, expect.any(String)]);
    }
    // The tier each tool needs is the one its REST route enforces (the opportunity endpoints' tests pin them).
    const expected: Record<string, string> = {
      find_ev_opportunities: 'pro',
      find_middles: 'pro',
      find_arbitrage: 'hobby',
      find_low_hold: 'hobby',
      get_odds: 'free',
      get_sports: 'free',
      get_settlements: 'pro',
      price_parlay: 'pro',
      get_players: 'free',
      get_prediction_markets: 'hobby',
    };
    for (const [name, tier] of Object.entries(expected)) {
      expect(byName(free, name)._meta).toMatchObject({ 'odds-service/required_tier': tier, 'odds-service/available': tier === 'free' });
      expect(byName(sharp, name)._meta).toMatchObject({ 'odds-service/required_tier': tier, 'odds-service/available': true });
    }
    expect(byName(free, 'find_ev_opportunities').description).toContain(
      'Tier: pro and up. Not available to this key (this key is on the free tier)',
    );
    expect(byName(sharp, 'find_ev_opportunities').description).toContain('Tier: pro and up.');
    expect(byName(sharp, 'find_ev_opportunities').description).not.toContain('Not available');
    expect(byName(free, 'get_odds_delta').inputSchema.required).toEqual(['since']);
    expect(byName(free, 'compare_odds').inputSchema.required).toEqual(['event']);
  });

  describe('every tool answers what its REST route answers for the same key', () => {
    // [tool, arguments, the REST path the same request is written as by hand (POST: "POST /path", the arguments the body)]
    const cases = (): Array<[string, J, string]> => [
      ['get_sports', {}, '/sports'],
      ['get_sports', { include_empty: true }, '/sports?include_empty=true'],
      ['get_leagues', { sport: 'football' }, '/leagues?sport=football'],
      ['get_sportsbooks', { region: 'US', sharp: false }, '/sportsbooks?region=US&sharp=false'],
      ['get_markets', {}, '/markets'],
      ['get_account_info', {}, '/account'],
      ['get_events', { league: 'nfl', limit: 1 }, '/events?league=nfl&limit=1'],
      [
        'get_odds',
        { event: chiefs, sportsbook: ['draftkings', 'pinnacle'], market: 'moneyline', sort: '-odds_decimal' },
        `/odds?event=${chiefs}&sportsbook=draftkings,pinnacle&market=moneyline&sort=-odds_decimal`,
      ],
      ['get_odds_delta', { since: '2026-11-22T11:00:00Z', league: 'nfl' }, '/odds/delta?since=2026-11-22T11:00:00Z&league=nfl'],
      ['get_best_odds', { league: 'nfl', market: 'moneyline' }, '/odds/best?league=nfl&market=moneyline'],
      ['compare_odds', { event: chiefs, market: 'moneyline' }, `/odds/comparison?event=${chiefs}&market=moneyline`],
      ['find_low_hold', { max_hold: 5 }, '/opportunities/low_hold?max_hold=5'],
      ['find_arbitrage', { min_profit: 0.5, sort: 'profit' }, '/opportunities/arbitrage?min_profit=0.5&sort=profit'],
      ['get_closing_lines', { event_id: chiefs }, `/odds/closing?event_id=${chiefs}`],
      ['get_line_history', { event: chiefs, market: 'moneyline' }, `/odds/history?event=${chiefs}&market=moneyline`],
      [
        'get_line_movement',
        { event: chiefs, selection: 'home', steam_window: 30 },
        `/odds/movement?event=${chiefs}&selection=home&steam_window=30`,
      ],
      ['get_futures', { league: 'nfl' }, '/futures?league=nfl'],
      ['get_futures_odds', { future_id: 'nfl_super_bowl_winner' }, '/futures/odds?future_id=nfl_super_bowl_winner'],
      ['compare_futures_lines', { future_id: 'nfl_super_bowl_winner' }, '/futures/odds?future_id=nfl_super_bowl_winner'],
      ['find_ev_opportunities', { min_ev: 1, devig_method: 'multiplicative' }, '/opportunities/ev?min_ev=1&devig_method=multiplicative'],
      ['find_middles', { min_size: 1 }, '/opportunities/middles?min_size=1'],
      ['get_game_state', {}, '/gamestate'],
      ['get_game_state', { sport: 'football' }, '/gamestate/football'],
      ['get_splits', { league: 'nfl', limit: 10 }, '/splits?league=nfl&limit=10'],
      ['get_settlements', { market_type: 'moneyline', limit: 5 }, '/settlements?market_type=moneyline&limit=5'],
      ['get_players', { league: 'nfl', q: 'mahomes', limit: 5 }, '/players?league=nfl&q=mahomes&limit=5'],
      [
        'get_prediction_markets',
        { venue: 'kalshi', category: 'game', status: 'open' },
        '/prediction-markets?venue=kalshi&category=game&status=open',
      ],
      [
        'price_parlay',
        { legs: [{ event_id: chiefs, market: 'moneyline', selection: 'home', sportsbook: 'draftkings' }] },
        'POST /parlay/price',
      ],
    ];

    it.each(['enterprise', 'free'] as const)('on the %s tier', async (tier) => {
      // Free keys see the board as it stood 60 s ago: move past the ingest so the delayed view has the prices.
      if (tier === 'free') clock.advance(61_000);
      const seen = new Set<string>();
      let c: Client | undefined;
      let key: string = KEYS.enterprise;
      for (const [name, args, path] of cases()) {
        // A free key's 12 requests a minute: a fresh key (and client) for each case.
        if (tier === 'free' || !c) {
          key = tier === 'free' ? await t.newKey('free') : KEYS.enterprise;
          c = await connect(key);
        }
        seen.add(name);
        const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
        const rest = path.startsWith('POST ')
          ? await t.call(path.slice(5), { key, method: 'POST', body: args })
          : await t.call(path, { key });
        const label = `${name} ${JSON.stringify(args)} (REST ${rest.status})`;
        // The same JSON (the endpoints not served yet answer 404 both ways, and then the tool is an error).
        expect([label, r.structuredContent]).toEqual([label, rest.json]);
        expect([label, Boolean(r.isError)]).toEqual([label, rest.status >= 400]);
        if ((name === 'get_odds' || name === 'get_best_odds') && rest.status === 200)
          expect([label, rest.json.data.length > 0]).toEqual([label, true]);
        // A summary first, then the JSON itself as text.
        expect(r.content.length).toBe(2);
        expect(JSON.parse((r.content[1] as { text: string }).text)).toEqual(rest.json);
        if (rest.status >= 400) expect((r.content[0] as { text: string }).text).toContain(`${rest.json.error.code} (HTTP ${rest.status})`);
      }
      expect([...seen].sort()).toEqual([...ALL_TOOLS].sort());
    });

    it('summarises in words: counts, the first item, the best book per selection, the free delay', async () => {
      const c = await connect(KEYS.sharp);
      const arb = (await c.callTool({ name: 'find_arbitrage', arguments: {} })) as CallToolResult;
      const arbs = (arb.structuredContent as J).data as J[];
      expect(arbs.length).toBeGreaterThan(0);
      expect(text(arb)).toContain(`${arbs.length} arbitrage opportunities`);
      expect(text(arb)).toContain(`First: ${arbs[0]!.profit_percent}% on`);
      const cmp = (await c.callTool({ name: 'compare_odds', arguments: { event: chiefs, market: 'moneyline' } })) as CallToolResult;
      // Kansas City: DraftKings +110 is the best of +110 / -105 / -115 / -125; FanDuel -125 the worst.
      expect(text(cmp)).toContain('moneyline Kansas City Chiefs: best +110 at draftkings (worst -125 at fanduel, 4 books)');
      const free = await connect(await t.newKey('free'));
      const odds = (await free.callTool({ name: 'get_odds', arguments: { league: 'nfl' } })) as CallToolResult;
      expect(text(odds)).toContain('60 s data delay');
    });
  });

  describe('refusals', () => {
    it('invalid arguments: a tool error naming the argument and the rule, no data', async () => {
      const c = await connect(KEYS.pro);
      const cases: Array<[string, J, RegExp]> = [
        ['get_odds_delta', {}, /Invalid arguments for tool get_odds_delta[\s\S]*since/],
        ['get_odds_delta', { since: 'yesterday' }, /since/],
        ['get_odds', { limit: 0 }, /limit/],
        ['get_odds', { limit: 501 }, /limit/],
        ['get_odds', { sort: 'price' }, /sort/],
        ['get_odds', { lesgue: 'nfl' }, /lesgue/],
        ['compare_odds', {}, /event/],
        ['find_arbitrage', { min_profit: 'lots' }, /min_profit/],
        ['get_game_state', { sport: '../metrics' }, /sport must be a sport id/],
      ];
      for (const [name, args, message] of cases) {
        const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
        expect([name, args, r.isError]).toEqual([name, args, true]);
        expect(text(r)).toMatch(/Input validation error/);
        expect(text(r)).toMatch(message);
        expect(r.structuredContent).toBeUndefined();
      }
    });

    it("arguments the route refuses: the route's own 400, as a tool error", async () => {
      const c = await connect(KEYS.pro);
      const r = (await c.callTool({ name: 'get_odds', arguments: { sportsbook: 'nosuchbook' } })) as CallToolResult;
      const rest = await t.call('/odds?sportsbook=nosuchbook', { key: KEYS.pro });
      expect(rest.status).toBe(400);
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toEqual(rest.json);
      expect(text(r)).toContain('invalid_request (HTTP 400)');
      expect(text(r)).toContain('nosuchbook');
    });

    it('above the tier: a tool error naming the tier needed, never data', async () => {
      const c = await connect(await t.newKey('free'));
      for (const [name, tier] of [
        ['find_ev_opportunities', 'pro'],
        ['find_middles', 'pro'],
        ['find_arbitrage', 'hobby'],
        ['find_low_hold', 'hobby'],
      ] as const) {
        const r = (await c.callTool({ name, arguments: {} })) as CallToolResult;
        expect([name, r.isError]).toEqual([name, true]);
        expect(text(r)).toContain('tier_restricted (HTTP 403)');
        expect(text(r)).toContain(`Required tier: ${tier}.`);
        expect(r.structuredContent).toMatchObject({ error: { code: 'tier_restricted', required_tier: tier } });
        expect((r.structuredContent as J).data).toBeUndefined();
      }
      // A book above the tier, the same way.
      const book = (await c.callTool({ name: 'get_odds', arguments: { sportsbook: 'pinnacle' } })) as CallToolResult;
      expect(book.isError).toBe(true);
      expect(text(book)).toContain('Required tier: sharp.');
      const hobby = await connect(KEYS.hobby);
      const ev = (await hobby.callTool({ name: 'find_ev_opportunities', arguments: {} })) as CallToolResult;
      expect(text(ev)).toContain('Required tier: pro.');
    });

    it('no key or a wrong key: 401 before any MCP message is handled', async () => {
      // The SDK's StreamableHTTPError carries the HTTP status as `code`.
      await expect(connect()).rejects.toMatchObject({ code: 401, message: expect.stringContaining('unauthorized') });
      await expect(connect('sk_live_not_a_key_000000000000')).rejects.toMatchObject({ code: 401 });
      const r = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(r.status).toBe(401);
      expect(((await r.json()) as J).error.code).toBe('unauthorized');
    });

    it('one message per request: a JSON-RPC batch is refused; GET and DELETE are 405', async () => {
      const r = await rpc(
        [
          { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        ],
        KEYS.pro,
      );
      expect(r.status).toBe(400);
      expect(((await r.json()) as J).error).toMatchObject({ code: -32600, message: expect.stringContaining('batches') });
      for (const method of ['GET', 'DELETE']) {
        const g = await fetch(`${t.url}/api/v1/mcp`, { method, headers: { 'X-API-Key': KEYS.pro, Accept: 'text/event-stream' } });
        expect([method, g.status]).toEqual([method, 405]);
      }
    });
  });

  it('rate limit: every MCP request (handshake 2, tools/list 1, each tool call 1) spends the same per-key budget as REST', async () => {
    const key = await t.newKey('free'); // 12 requests a minute; the manual clock keeps the window open
    const remaining = async (path: string) => Number((await t.call(path, { key })).headers.get('x-ratelimit-remaining'));
    expect(await remaining('/sports')).toBe(11); // 1
    const c = await connect(key); // initialize + notifications/initialized: 3
    expect(await remaining('/account')).toBe(8); // 4
    await c.listTools(); // 5
    for (const name of ['get_sports', 'get_leagues', 'get_markets']) {
      const r = (await c.callTool({ name, arguments: {} })) as CallToolResult; // 6, 7, 8
      expect(r.isError).toBeFalsy();
    }
    expect(await remaining('/sports')).toBe(3); // 9
    const raw = await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get_sports', arguments: {} } }, key); // 10
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('2');
    await c.callTool({ name: 'get_account_info', arguments: {} }); // 11
    await c.callTool({ name: 'get_account_info', arguments: {} }); // 12
    await expect(c.callTool({ name: 'get_sports', arguments: {} })).rejects.toMatchObject({
      code: 429,
      message: expect.stringContaining('rate_limited'),
    }); // 13: refused
    const rest = await t.call('/sports', { key }); // refused too: one budget
    expect(rest.status).toBe(429);
    expect(rest.json.error.code).toBe('rate_limited');
    const over = await rpc({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, key);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it("usage: a tool call counts once in the account's usage (the REST request it makes inside is not counted again)", async () => {
    const key = await t.newKey('pro');
    const today = async () => Number((await t.call('/account/usage', { key })).json.data.requests.today);
    const c = await connect(key); // initialize + notifications/initialized: 2 requests
    const before = await today(); // the usage call itself is counted too
    for (const name of ['get_sports', 'get_leagues', 'get_markets']) {
      const r = (await c.callTool({ name, arguments: {} })) as CallToolResult;
      expect(r.isError).toBeFalsy();
    }
    expect(await today()).toBe(before + 3 + 1);
  });

  it("resources: the tier table with this key's tools, and the sportsbook catalog as REST serves it", async () => {
    const c = await connect(KEYS.hobby);
    const list = await c.listResources();
    expect(list.resources.map((r) => r.uri).sort()).toEqual(['odds://sportsbooks', 'odds://tiers']);
    const tiers = await c.readResource({ uri: 'odds://tiers' });
    const md = (tiers.contents[0] as { text: string }).text;
    expect(md).toContain('This key is on the **hobby** tier');
    expect(md).toContain('| find_arbitrage | GET /api/v1/opportunities/arbitrage | hobby+ | yes |');
    expect(md).toContain('| find_ev_opportunities | GET /api/v1/opportunities/ev | pro+ | no |');
    const books = await c.readResource({ uri: 'odds://sportsbooks' });
    const rest = await t.call('/sportsbooks?catalog=true&include_unlisted=true', { key: KEYS.hobby });
    expect(JSON.parse((books.contents[0] as { text: string }).text)).toEqual(rest.json);
  });

  it("prompts: today's best arbitrage, line shopping, value bets", async () => {
    const c = await connect(KEYS.pro);
    const list = await c.listPrompts();
    expect(list.prompts.map((p) => p.name).sort()).toEqual(['find_todays_best_arbitrage', 'find_value_bets', 'shop_the_line']);
    const p = await c.getPrompt({ name: 'find_todays_best_arbitrage', arguments: { sport: 'basketball' } });
    const msg = (p.messages[0]!.content as { text: string }).text;
    expect(msg).toContain('find_arbitrage');
    expect(msg).toContain('date_range "today"');
    expect(msg).toContain('sport "basketball"');
  });
});
