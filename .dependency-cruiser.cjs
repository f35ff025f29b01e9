/**
 * The module boundaries, checked by `npm run depcheck` (part of `npm run lint`, so of `npm test` and CI).
 *
 * Layers, from the bottom up; a layer imports only from layers below it (README "Architecture"):
 *   infrastructure  src/config, src/domain, src/math, src/common, src/database, modules/cluster, the metrics registry
 *   providers       modules/ingestion/{simulator,odds-api,importers}: produce batches, know nothing of the service
 *   ingestion       modules/ingestion: providers -> pipeline -> board; splits go out on the bus (ingestion/topics.ts)
 *   board, stores   modules/board (live prices and events, delayed views, the store) and modules/stores (line history)
 *   detection       modules/detection: the engine and what detectors share
 *   read models     reference -> events -> odds, splits, accounts, opportunity-lists -> the types (ev, arbitrage, middles, low-hold)
 *   API / stream    stream, health, metrics gauges, app.module, openapi, cli, main
 */
const READ_MODELS = '^src/modules/(reference|events|odds|odds-history|splits|accounts|opportunity-lists|ev|arbitrage|middles|low-hold)/';
const TYPES = '^src/modules/(ev|arbitrage|middles|low-hold)/';
const TOP = '^src/(modules/(stream|health)/|modules/metrics/metrics-gauges|app\\.|openapi|cli|main)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles at run time (a cycle through type-only imports, erased on compilation, is allowed).',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'infrastructure-below-modules',
      severity: 'error',
      comment:
        'Infrastructure does not import feature modules. Exceptions: the metrics registry and leadership are infrastructure ' +
        'living in modules/; the database lists the entities it maps; the authenticator looks keys up in the accounts store.',
      from: { path: '^src/(config|domain|math|common|database)/' },
      to: {
        path: '^src/modules/',
        pathNot: [
          '^src/modules/metrics/metrics\\.(service|module)\\.ts$',
          '^src/modules/cluster/',
          '^src/modules/(stores/)?[^/]+/[^/]+\\.entit(y|ies)\\.ts$',
          '^src/modules/accounts/(api-keys\\.service|accounts\\.module)\\.ts$',
        ],
      },
    },
    {
      name: 'providers-know-only-the-domain',
      severity: 'error',
      comment: 'Providers (simulator, feeds, importers) produce batches; they know neither the pipeline nor the board nor anything above.',
      from: { path: '^src/modules/ingestion/(simulator|odds-api|importers)/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/ingestion/(simulator|odds-api|importers)/' },
    },
    {
      name: 'ingestion-feeds-the-board-only',
      severity: 'error',
      comment: 'Ingestion writes to the board and publishes splits on the bus; it imports nothing downstream of the board.',
      from: { path: '^src/modules/ingestion/' },
      to: { path: [READ_MODELS, '^src/modules/detection/', TOP] },
    },
    {
      name: 'board-knows-nothing-above',
      severity: 'error',
      comment: 'The board is read by detection, read models and the stream; it imports none of them (nor ingestion).',
      from: { path: '^src/modules/board/' },
      to: { path: ['^src/modules/ingestion/', '^src/modules/detection/', READ_MODELS, TOP] },
    },
    {
      name: 'stores-know-nothing-above',
      severity: 'error',
      comment: 'The stores (line history) sit beside the board: read by read models, fed by the bus; they import nothing above.',
      from: { path: '^src/modules/stores/' },
      to: { path: ['^src/modules/ingestion/', '^src/modules/detection/', READ_MODELS, TOP] },
    },
    {
      name: 'detection-below-read-models',
      severity: 'error',
      comment: 'The detection engine knows the board and the Detector interface, not the types, lists, ingestion or the stream.',
      from: { path: '^src/modules/detection/' },
      to: { path: ['^src/modules/ingestion/', READ_MODELS, TOP] },
    },
    {
      name: 'read-models-below-api',
      severity: 'error',
      comment: 'Read models do not import ingestion (only its bus topics), the stream, health or the gauges.',
      from: { path: READ_MODELS },
      to: { path: ['^src/modules/ingestion/', TOP], pathNot: '^src/modules/ingestion/topics\\.ts$' },
    },
    {
      name: 'reference-is-the-first-read-model',
      severity: 'error',
      from: { path: '^src/modules/reference/' },
      to: { path: READ_MODELS, pathNot: '^src/modules/reference/' },
    },
    {
      name: 'events-below-odds-and-lists',
      severity: 'error',
      from: { path: '^src/modules/events/' },
      to: { path: READ_MODELS, pathNot: '^src/modules/(events|reference)/' },
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
