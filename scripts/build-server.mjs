/**
 * Compiles the production server (server.ts and everything it imports from this repository)
 * to plain JavaScript in dist/, so `npm start` and the image run `node dist/server.js` with no
 * transpiler loaded. Packages stay external (node_modules is resolved at run time, as Next
 * does); lazily imported modules become their own chunks, so the cluster's primary process
 * still loads only what it needs. Type errors are not this step's job: `npm run typecheck`
 * (and the test suite's typecheck) refuse them before anything ships.
 */
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

// The output directory (dist/; a test passes its own). esbuild adds each build's hashed chunks
// beside the last build's and never removes any: emptied first, it holds this build's only.
const outdir = process.argv[2] ?? 'dist'
rmSync(outdir, { recursive: true, force: true })

await build({
  // The server, and the operator's scripts that run where the server runs (the image has no tsx).
  entryPoints: {
    server: 'server.ts',
    'scripts/backup': 'scripts/backup.ts',
    'scripts/restore': 'scripts/restore.ts',
    'scripts/migrate': 'scripts/migrate.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.9',
  packages: 'external',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
})
