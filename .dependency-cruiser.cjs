/**
 * The layers, declared and enforced (`npm run lint:layers`; test/layers.test.ts runs it in CI).
 * Dependencies point one way, top to bottom:
 *
 *   entry points   everything at the top level: server.ts and server/ (the process runtime: cluster,
 *                  graceful drain, metrics endpoint), payload.config.ts, app/, endpoints/,
 *                  collections/, scripts/, bench/
 *   HTTP edge      src/edge/                       (requests and responses: headers, Bearer tokens, CORS,
 *                                                   envelopes, errors, request ids; used by entry points only)
 *   wiring         src/startup/, src/seed/, src/jobs/  (start-up, demo seeding, follow-up runner)
 *   services       src/services/                   (business rules shared by /api/v1 and the admin panel)
 *   auth, db       src/auth/, access/, src/db/      (authorization and the database engines)
 *   platform       src/platform/                   (configuration, logging, errors, events, metrics, media
 *                                                   checks, text and URL rules, pagination: utilities)
 *
 * A module may import its own layer and any layer below it, never one above.
 */
const ENTRY = '^(server[.]ts|server/|payload[.]config[.]ts|app/|endpoints/|collections/|scripts/|bench/)'
const HTTP = '^src/edge/'
const WIRING = '^src/(startup|seed|jobs)/'
const SERVICES = '^src/services/'
const AUTH = '^(src/auth/|access/)'
const DB = '^src/db/'
const PLATFORM = '^src/platform/'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: split the shared part out into a lower layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-entry-points',
      severity: 'error',
      comment: 'Nothing in src/ or access/ imports an entry point (routes, collections, app, scripts): move the shared part down.',
      from: { path: '^(src|access)/' },
      to: { path: ENTRY },
    },
    {
      name: 'routes-not-to-db',
      comment: 'Routes, collections and the admin app reach the database through a service; only the composition roots (payload.config.ts, server.ts, server/) and the wiring touch src/db.',
      severity: 'error',
      from: { path: '^(endpoints|collections|app)/' },
      // The engines' type vocabularies (src/db/*Types.ts: record shapes, action names) are shared.
      to: { path: DB, pathNot: '^src/db/[^/]+Types[.]ts$' },
    },
    {
      name: 'collections-not-to-endpoints',
      severity: 'error',
      comment: 'Collections describe data; HTTP handlers are registered in payload.config.ts.',
      from: { path: '^collections/' },
      to: { path: '^endpoints/' },
    },
    {
      name: 'http-edge-not-to-wiring',
      severity: 'error',
      comment: 'The HTTP edge adapts requests to services; start-up, seeding and jobs sit beside services, not under the edge.',
      from: { path: HTTP },
      to: { path: WIRING },
    },
    {
      name: 'wiring-not-to-http',
      severity: 'error',
      comment: 'Start-up, seeding and jobs run outside a request: no HTTP code.',
      from: { path: WIRING },
      to: { path: HTTP },
    },
    {
      name: 'jobs-and-seed-not-to-startup',
      severity: 'error',
      comment: 'Start-up wires jobs and seeding together, not the other way round.',
      from: { path: '^src/(seed|jobs)/' },
      to: { path: '^src/startup/' },
    },
    {
      name: 'services-not-to-http',
      severity: 'error',
      comment: 'Services never import HTTP code: they take plain values and return data or throw ApiError.',
      from: { path: SERVICES },
      to: { path: `${HTTP}|${ENTRY}` },
    },
    {
      name: 'services-not-to-wiring',
      severity: 'error',
      comment: 'Services are what start-up, seeding and jobs call, never the reverse.',
      from: { path: SERVICES },
      to: { path: WIRING },
    },
    {
      name: 'auth-not-up',
      severity: 'error',
      comment: 'src/auth and access/ sit under the services: they import only the database and the platform.',
      from: { path: AUTH },
      to: { path: `${SERVICES}|${WIRING}|${HTTP}` },
    },
    {
      name: 'db-not-up',
      severity: 'error',
      comment: 'src/db imports no services, auth, wiring or HTTP code: only the platform.',
      from: { path: DB },
      to: { path: `${SERVICES}|${WIRING}|${HTTP}|${AUTH}` },
    },
    {
      name: 'platform-not-up',
      severity: 'error',
      comment: 'The platform imports nothing above it.',
      from: { path: PLATFORM },
      to: { path: `${DB}|${AUTH}|${SERVICES}|${WIRING}|${HTTP}` },
    },
    {
      name: 'edge-only-from-entry-points',
      severity: 'error',
      comment: 'Only entry points (server, routes, the Next app, the process runtime) use the HTTP edge; collections, access and everything under it see no request.',
      from: { path: '^(src|access|collections)/', pathNot: '^src/edge/' },
      to: { path: HTTP },
    },
    {
      name: 'no-http-below-the-edge',
      severity: 'error',
      comment: "Node's HTTP modules belong to the edge and the process runtime: nothing else handles a request or a header.",
      from: { path: '^(src|access|collections|endpoints)/', pathNot: '^src/edge/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2)$' },
    },
    // The rooms: SQLite's text search, SQLite's write path, freshness, the migrations. From any
    // importer the layers are checked for (entry points, scripts and benches too; tests reach in).
    {
      name: 'rooms-through-their-entry',
      severity: 'error',
      comment: "A room of src/db (a folder with an index.ts) is entered through its index only: what lies behind it is the room's own.",
      from: { pathNot: '^src/db/sqlite/search/' },
      to: { path: '^src/db/sqlite/search/', pathNot: '^src/db/sqlite/search/index[.]ts$' },
    },
    {
      name: 'rooms-through-their-entry',
      severity: 'error',
      comment: "A room of src/db (a folder with an index.ts) is entered through its index only: what lies behind it is the room's own.",
      from: { pathNot: '^src/db/sqlite/writes/' },
      to: { path: '^src/db/sqlite/writes/', pathNot: '^src/db/sqlite/writes/index[.]ts$' },
    },
    {
      name: 'rooms-through-their-entry',
      severity: 'error',
      comment: "A room of src/db (a folder with an index.ts) is entered through its index only: what lies behind it is the room's own.",
      from: { pathNot: '^src/db/freshness/' },
      to: { path: '^src/db/freshness/', pathNot: '^src/db/freshness/index[.]ts$' },
    },
    {
      name: 'rooms-through-their-entry',
      severity: 'error',
      comment: "An engine's migrations (a folder with Payload's index.ts listing them) are entered through that list only.",
      from: { pathNot: '^src/db/(sqlite|mongo)/migrations/' },
      to: { path: '^src/db/(sqlite|mongo)/migrations/', pathNot: '^src/db/(sqlite|mongo)/migrations/index[.]ts$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a broken import.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|[.]next|data|test-results)/' },
    // Type-only imports count: a service importing an HTTP type depends on the HTTP layer.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
}
