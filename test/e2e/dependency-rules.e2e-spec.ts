import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { projectRoot } from '../../src/config/paths.js';

/**
 * The layer rules of .dependency-cruiser.cjs bite: a small tree (written to a temporary directory) breaks every
 * rule once, and `depcruise` with the project's configuration, as `npm run depcheck` runs it, reports each one and
 * exits non-zero. A rule that matched nothing (a path pattern gone stale) fails here.
 */

/** file -> the relative imports it makes (`type:` prefix: a type-only import). */
const TREE: Record<string, string[]> = {
  // Infrastructure importing a module; the database importing more than an entity.
  'src/common/auth/authenticator.ts': ['../../modules/accounts/api-keys.service'],
  'src/modules/accounts/api-keys.service.ts': [],
  'src/database/entities.ts': ['../modules/stores/futures/futures.entities', '../modules/accounts/api-keys.service'],
  'src/modules/stores/futures/futures.entities.ts': [],
  // A provider importing the board.
  'src/modules/ingestion/simulator/simulator.ts': ['../../board/board.service'],
  // The board importing the metrics module; a store importing a reader.
  'src/modules/board/board.service.ts': ['../metrics/metrics.service'],
  'src/modules/metrics/metrics.service.ts': [],
  'src/modules/stores/splits/splits-store.service.ts': ['../../splits/splits.service'],
  // Ingestion importing a reader; a reader importing ingestion.
  'src/modules/ingestion/ingestion.service.ts': ['../futures/futures-ingest'],
  'src/modules/futures/futures-ingest.ts': ['../ingestion/pipeline'],
  'src/modules/ingestion/pipeline.ts': [],
  'src/modules/splits/splits.service.ts': [],
  // Detection importing a reader; reference and events importing what is above them.
  'src/modules/detection/detection.engine.ts': ['../odds/odds.service'],
  'src/modules/reference/ref-blocks.ts': ['../odds/odds.service'],
  'src/modules/events/events.service.ts': ['../odds/odds.service'],
  // A reader reaching into the live registries, and naming a type's module.
  'src/modules/odds/odds.service.ts': ['../detection/registry', '../low-hold/low-hold.module'],
  'src/modules/detection/registry.ts': [],
  'src/modules/low-hold/low-hold.module.ts': [],
  // One opportunity type importing another; a shared list importing a type.
  'src/modules/ev/ev.presenter.ts': ['../arbitrage/arbitrage.record'],
  'src/modules/arbitrage/arbitrage.record.ts': [],
  'src/modules/opportunity-lists/present.ts': ['../middles/middles.record'],
  'src/modules/middles/middles.record.ts': [],
  // A cycle through type-only imports.
  'src/modules/parlay/parlay.service.ts': ['type:./dto/parlay.dto'],
  'src/modules/parlay/dto/parlay.dto.ts': ['type:../parlay.service'],
};

/** The rule each pair must break (a pair may break two). */
const EXPECTED: Array<[rule: string, from: string, to: string]> = [
  ['common-below-modules', 'src/common/auth/authenticator.ts', 'src/modules/accounts/api-keys.service.ts'],
  ['database-lists-only-entities', 'src/database/entities.ts', 'src/modules/accounts/api-keys.service.ts'],
  ['providers-know-only-the-domain', 'src/modules/ingestion/simulator/simulator.ts', 'src/modules/board/board.service.ts'],
  ['stores-know-nothing-above', 'src/modules/board/board.service.ts', 'src/modules/metrics/metrics.service.ts'],
  ['only-the-root-imports-the-metrics-module', 'src/modules/board/board.service.ts', 'src/modules/metrics/metrics.service.ts'],
  ['stores-know-nothing-above', 'src/modules/stores/splits/splits-store.service.ts', 'src/modules/splits/splits.service.ts'],
  ['ingestion-feeds-the-stores-only', 'src/modules/ingestion/ingestion.service.ts', 'src/modules/futures/futures-ingest.ts'],
  ['readers-never-import-ingestion', 'src/modules/futures/futures-ingest.ts', 'src/modules/ingestion/pipeline.ts'],
  ['detection-below-readers', 'src/modules/detection/detection.engine.ts', 'src/modules/odds/odds.service.ts'],
  ['reference-is-the-first-read-model', 'src/modules/reference/ref-blocks.ts', 'src/modules/odds/odds.service.ts'],
  ['events-below-odds-and-lists', 'src/modules/events/events.service.ts', 'src/modules/odds/odds.service.ts'],
  ['detection-registries-are-private', 'src/modules/odds/odds.service.ts', 'src/modules/detection/registry.ts'],
  ['only-the-registration-list-names-the-types', 'src/modules/odds/odds.service.ts', 'src/modules/low-hold/low-hold.module.ts'],
  ['opportunity-types-are-independent', 'src/modules/ev/ev.presenter.ts', 'src/modules/arbitrage/arbitrage.record.ts'],
  ['shared-lists-know-no-type', 'src/modules/opportunity-lists/present.ts', 'src/modules/middles/middles.record.ts'],
  ['shared-lists-know-no-type', 'src/modules/odds/odds.service.ts', 'src/modules/low-hold/low-hold.module.ts'],
  ['no-circular', 'src/modules/parlay/dto/parlay.dto.ts', 'src/modules/parlay/parlay.service.ts'],
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

let dir: string;
const config = join(projectRoot(), '.dependency-cruiser.cjs');
const depcruise = join(projectRoot(), 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [depcruise, 'src', '--config', config, ...args], { cwd: dir, encoding: 'utf8' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'depcruise-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }));
  for (const [file, imports] of Object.entries(TREE)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    const lines = imports.map((spec, i) =>
      spec.startsWith('type:') ? `import type { X as T${i} } from '${spec.slice(5)}.js';` : `import { X as V${i} } from '${spec}.js';`,
    );
    const uses = imports.map((spec, i) => (spec.startsWith('type:') ? `export type U${i} = T${i};` : `export const U${i} = V${i};`));
    writeFileSync(join(dir, file), [...lines, 'export const X = 1;', 'export type X = number;', ...uses, ''].join('\n'));
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the layer rules', () => {
  it('report each violation by its rule', () => {
    const r = run('--output-type', 'json');
    const violations = (JSON.parse(r.stdout) as { summary: { violations: Violation[] } }).summary.violations;
    const found = violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    // Each break once, and nothing else: the allowed import in the tree (an entity, from the database) passes.
    expect([...new Set(found)].sort()).toEqual(EXPECTED.map(([rule, from, to]) => `${rule}: ${from} -> ${to}`).sort());
  });

  it('every rule of the configuration is exercised', () => {
    const rules = (createRequire(import.meta.url)(config) as { forbidden: Array<{ name: string }> }).forbidden.map((f) => f.name);
    expect([...new Set(EXPECTED.map(([rule]) => rule))].sort()).toEqual([...rules].sort());
  });

  it('fail the check (non-zero exit) as npm run depcheck runs it', () => {
    const r = run('--output-type', 'err');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toContain('no-circular');
  });
});

describe('the module map of docs/architecture.md', () => {
  it('is the one the sources make (node scripts/module-map.mjs --write regenerates it)', () => {
    const r = spawnSync(process.execPath, [join(projectRoot(), 'scripts', 'module-map.mjs'), '--check'], {
      cwd: projectRoot(),
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
