/**
 * The module boundaries, checked by `npm run depcheck` (part of `npm run lint`, so of `npm test` and CI).
 * docs/architecture.md draws the layers and lists these rules; test/e2e/dependency-rules.e2e-spec.ts proves that a
 * violation of each fails.
 *
 * Layers, from the bottom up; a layer imports only from layers below it:
 *   infrastructure  src/config, src/domain (types, bus topics), src/math, src/common (http, auth and its key-lookup
 *                   port, rate limit, bus, clock, the metrics registry), src/database, modules/cluster
 *   stores          modules/board (main markets) and modules/stores/* (futures, game state, splits, ...): the data
 *   providers       modules/ingestion/{simulator,odds-api,importers}: produce batches, know nothing of the service
 *   ingestion       modules/ingestion: decode, validate, map; hands each part of a batch to its store
 *   detection       modules/detection: the engine and what detectors share; reads the board
 *   readers         every other folder of modules/ (reference, events, odds, splits, futures, game-state, closing-lines,
 *                   clv, settlements, parlay, accounts, deep-links, opportunity-lists, the opportunity types, ...)
 *   API / stream    stream, mcp, health, the metrics module (GET /metrics and the gauges), backtest (replays a window
 *                   through a pipeline and board of its own, the +EV detector and the CLV maths), app.module, openapi,
 *                   cli, main
 */
const STORES = '^src/modules/(board|stores)/';
const NOT_READERS = 'board|stores|ingestion|detection|cluster|stream|mcp|health|metrics|backtest';
/** Every folder of src/modules that is not a store, ingestion, detection, infrastructure or the API surface. */
const READERS = `^src/modules/(?!(${NOT_READERS})/)[^/]+/`;
const TYPES = '^src/modules/(ev|arbitrage|middles|low-hold)/';
const TOP = '^src/(modules/(stream|mcp|health|metrics|backtest)/|app\\.|openapi|cli|main)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles, type-only imports included: shared record and DTO types live in files of their own.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-below-modules',
      severity: 'error',
      comment:
        'Infrastructure (config, domain, math, common) imports no module: auth declares the key-lookup port accounts ' +
        'implements, the metrics registry is in src/common/metrics, bus topics and their payloads are in src/domain.',
      from: { path: '^src/(config|domain|math|common)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'database-lists-only-entities',
      severity: 'error',
      comment: 'The database lists the entities it maps (each beside its store or module) and imports nothing else of a module.',
      from: { path: '^src/database/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/(stores/)?[^/]+/[^/]+\\.entit(y|ies)\\.ts$' },
    },
    {
      name: 'providers-know-only-the-domain',
      severity: 'error',
      comment: 'Providers (simulator, feeds, importers) produce batches; they know neither the pipeline nor the stores nor anything above.',
      from: { path: '^src/modules/ingestion/(simulator|odds-api|importers)/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/ingestion/(simulator|odds-api|importers)/' },
    },
    {
      name: 'ingestion-feeds-the-stores-only',
      severity: 'error',
      comment: 'Ingestion hands each part of a batch to its store; it imports no reader, nor detection, nor the API surface.',
      from: { path: '^src/modules/ingestion/' },
      to: { path: [READERS, '^src/modules/detection/', TOP] },
    },
    {
      name: 'stores-know-nothing-above',
      severity: 'error',
      comment:
        'The stores (the board, modules/stores/*) are written by ingestion and read by detection, the readers and the ' +
        'stream; they import none of them, nor the metrics module (they count into the registry in src/common/metrics).',
      from: { path: STORES },
      to: { path: ['^src/modules/ingestion/', '^src/modules/detection/', READERS, TOP] },
    },
    {
      name: 'detection-below-readers',
      severity: 'error',
      comment: 'The detection engine knows the board and the Detector interface, not the types, readers, ingestion or the stream.',
      from: { path: '^src/modules/detection/' },
      to: { path: ['^src/modules/ingestion/', READERS, TOP] },
    },
    {
      name: 'readers-never-import-ingestion',
      severity: 'error',
      comment: 'Readers read the stores; they import nothing of ingestion (nor the stream, MCP, health or the metrics module).',
      from: { path: READERS },
      to: { path: ['^src/modules/ingestion/', TOP] },
    },
    {
      name: 'only-the-root-imports-the-metrics-module',
      severity: 'error',
      comment: 'The metrics module only exposes the registry (GET /metrics, the gauges); modules write to src/common/metrics.',
      from: { pathNot: ['^src/app\\.module\\.ts$', '^src/modules/metrics/'] },
      to: { path: '^src/modules/metrics/' },
    },
    {
      name: 'reference-is-the-first-read-model',
      severity: 'error',
      from: { path: '^src/modules/reference/' },
      to: { path: READERS, pathNot: '^src/modules/reference/' },
    },
    {
      name: 'events-below-odds-and-lists',
      severity: 'error',
      from: { path: '^src/modules/events/' },
      to: { path: READERS, pathNot: '^src/modules/(events|reference|game-state)/' },
    },
    {
      name: 'opportunity-types-are-independent',
      severity: 'error',
      comment: 'An opportunity type imports the engine and the shared lists, never another type (README "Extending").',
      from: { path: '^src/modules/(ev|arbitrage|middles|low-hold)/' },
      to: { path: TYPES, pathNot: '^src/modules/$1/' },
    },
    {
      name: 'shared-lists-know-no-type',
      severity: 'error',
      from: { path: '^src/modules/(opportunity-lists|odds|splits|accounts)/' },
      to: { path: TYPES },
    },
    {
      name: 'detection-registries-are-private',
      severity: 'error',
      comment: "The live registries are the engine's; others read them through DetectionEngine.live() (a LiveSet).",
      from: { pathNot: '^src/modules/detection/' },
      to: { path: '^src/modules/detection/registry\\.ts$' },
    },
    {
      name: 'only-the-registration-list-names-the-types',
      severity: 'error',
      comment: 'The opportunity type modules are listed in src/modules/opportunity-types.ts only.',
      from: { path: '^src/', pathNot: ['^src/modules/opportunity-types\\.ts$', TYPES] },
      to: { path: '^src/modules/(ev|arbitrage|middles|low-hold)/[^/]+\\.module\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
