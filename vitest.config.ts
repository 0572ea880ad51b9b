import os from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

/**
 * Files that measure wall-clock time in a server process of their own (event-loop delays, a
 * refusal before so many bytes, a freshness bound) or in their own (how late a timer runs beside
 * statements in slices: 54 ms against its 40 once, in a clean-clone run; the loop's delay while a
 * worker thread folds the write-ahead log): beside another file's
 * servers and browsers on 2 cores, the process they measure is descheduled for tens of
 * milliseconds and the figure is the machine's, not the code's. They run after every other file,
 * one at a time.
 */
const ALONE = ['test/ops/writeThenSearch.test.ts', 'test/security/bodyLimits.test.ts', 'test/freshnessBound.test.ts', 'test/db/loopSlices.test.ts', 'test/db/walCheckpoints.test.ts']

/**
 * Node's on-disk cache of compiled code, for every process the suite starts (its workers, the
 * servers and scripts they spawn inherit it): ~60 processes each load Next, Payload and the
 * service, and a load from the cache costs ~0.5 s of CPU less a server (3.2 -> 2.7 s). It changes
 * how fast modules load, nothing they do; a cache made by another Node version is ignored.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'curation-node-compile-cache')

export default defineConfig({
  resolve: { alias: { '@payload-config': path.resolve(import.meta.dirname, 'payload.config.ts') } },
  test: {
    setupFiles: ['test/support/setup.ts'],
    // Each file gets its own process and its own fresh database.
    pool: 'forks',
    // Browser tests drive Chromium against a real server; on a loaded 2-core machine a page can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['test/**/*.test.ts'],
          exclude: ALONE,
          // Files share their worker's process: Payload and the other packages load once per worker
          // instead of once per file (~3 s a file); each file still gets its own modules, database
          // and environment (test/support/setup.ts). Import time of a full run: 147 s -> 14 s.
          isolate: false,
          // Two files at a time even on 2 cores (vitest's default there is one): a file alternates between
          // its own work and waiting on the servers, browsers and scripts it starts, so one file at a time
          // left a core idle. On this 2-core machine the run went from 1,195 s to 757–779 s (~1.8 cores busy).
          maxWorkers: Math.max(2, os.availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        // writeThenSearch's 300,000 items are seeded in a process of their own while the suite runs.
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 }, globalSetup: ['test/ops/support/largeCorpus.ts'] },
      },
    ],
  },
})
