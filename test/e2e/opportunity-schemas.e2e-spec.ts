import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { ManualClock } from '../../src/common/time/clock.js';
import { IngestionService } from '../../src/modules/ingestion/ingestion.service.js';
import { KEYS, startTestApp, type TestApp } from '../support/test-app.js';
import { jsonSchema } from '../support/json-schema.js';
import { everyOpportunityType, NOW } from '../factories/quotes.js';

/**
 * The opportunity endpoints in /docs-json: each declares its 200 schema, and a real answer of each (on a board
 * holding every type of opportunity) validates against it with ajv.
 */

/** An arbitrage, +EV against Pinnacle and a middle on Chiefs v Bills; a low-hold (4.76%) market on Packers v Bears. */
const market = everyOpportunityType();

type Schema = Record<string, unknown>;

describe('opportunity endpoints in the API document', () => {
  let t: TestApp;
  let doc: {
    info: { description: string };
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
    components: { schemas: Schema };
  };

  beforeAll(async () => {
    t = await startTestApp({ clock: new ManualClock(NOW) });
    t.app.get(IngestionService).ingest({ source: 'test', quotes: market }, NOW);
    doc = (await (await fetch(`${t.url}/docs-json`)).json()) as typeof doc;
  });
  afterAll(async () => {
    await t.close();
  });

  const schemaOf = (path: string) =>
    doc.paths[`/api/v1${path.replace(':id', '{id}')}`]?.get?.responses['200']?.content?.['application/json']?.schema;

  it('every opportunity operation declares a 200 JSON schema', () => {
    const ops = Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/opportunities'));
    expect(ops.sort()).toEqual([
      '/api/v1/opportunities/arbitrage',
      '/api/v1/opportunities/ev',
      '/api/v1/opportunities/low_hold',
      '/api/v1/opportunities/middles',
      '/api/v1/opportunities/middles/summary',
      '/api/v1/opportunities/middles/{id}',
    ]);
    for (const p of ops)
      expect(schemaOf(p.slice('/api/v1'.length))).toMatchObject({ type: 'object', required: expect.arrayContaining(['success', 'data']) });
  });

  it.each([
    '/opportunities/ev',
    '/opportunities/arbitrage',
    '/opportunities/middles',
    '/opportunities/middles/summary',
    '/opportunities/low_hold',
    '/opportunities/middles/:id',
  ])('a real answer of %s validates against its schema', async (path) => {
    let url = path;
    if (path.endsWith(':id'))
      url = `/opportunities/middles/${(await t.call('/opportunities/middles', { key: KEYS.sharp })).json.data[0].id}`;
    const r = await t.call(url, { key: KEYS.sharp });
    expect(r.status).toBe(200);
    // Not vacuous: every list holds items (so their schema is exercised).
    if (Array.isArray(r.json.data)) expect(r.json.data.length).toBeGreaterThan(0);
    const schema = schemaOf(path);
    expect(schema).toBeDefined();
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const validate = ajv.compile({ ...(jsonSchema(schema) as Schema), components: { schemas: jsonSchema(doc.components.schemas) } });
    expect(validate(r.json) ? [] : validate.errors).toEqual([]);
    // The schema does constrain the items: a wrongly typed field fails.
    const broken = structuredClone(r.json);
    const first = Array.isArray(broken.data) ? broken.data[0] : broken.data;
    first[Object.keys(first).find((k) => typeof first[k] === 'number')!] = 'not a number';
    expect(validate(broken)).toBe(false);
  });

  it('the schemas describe every field the items carry', async () => {
    // Every key of a real item is a declared property (the reference blocks included).
    const props = (name: string): string[] => {
      const s = doc.components.schemas[name] as { properties?: Schema; allOf?: Array<{ $ref: string }> };
      return [...Object.keys(s.properties ?? {}), ...(s.allOf ?? []).flatMap((a) => props(a.$ref.split('/').pop()!))];
    };
    const cases: Array<[string, string]> = [
      ['/opportunities/ev', 'EvItemDto'],
      ['/opportunities/arbitrage', 'ArbitrageItemDto'],
      ['/opportunities/middles', 'MiddleItemDto'],
      ['/opportunities/low_hold', 'LowHoldItemDto'],
    ];
    for (const [path, dto] of cases) {
      const item = (await t.call(path, { key: KEYS.sharp })).json.data[0] as Schema;
      expect(Object.keys(item).filter((k) => !props(dto).includes(k))).toEqual([]);
    }
  });

  it('the tier table is generated from the tiers and the registered types, as it was written by hand', () => {
    expect(doc.info.description).toContain(
      [
        '| Tier | Requests/min | Data delay | Max books per request | +EV | Arbitrage | Middles | Low-hold | Game state | Streams |',
        '|---|---|---|---|---|---|---|---|---|---|',
        '| free | 12 | 60 s | 2 | - | - | - | - | - | 0 |',
        '| hobby | 120 | 0 | 5 | - | yes | - | yes | - | 1 |',
        '| pro | 300 | 0 | 15 | yes | yes | yes | yes | - | 2 |',
        '| sharp | 1000 | 0 | all | yes | yes | yes | yes | - | 5 |',
        '| enterprise | custom | 0 | all | yes | yes | yes | yes | yes | 20 |',
      ].join('\n'),
    );
  });
});
