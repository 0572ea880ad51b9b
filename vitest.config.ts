import os from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@payload-config': path.resolve(import.meta.dirname, 'payload.config.ts') } },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Each file gets its own process and its own fresh database.
    pool: 'forks',
    // Two files at a time even on 2 cores (vitest's default there is one): a file alternates between
    // its own work and waiting on the servers, browsers and scripts it starts, so one file at a time
    // left a core idle. On this 2-core machine the run went from 1,195 s to 757–779 s (~1.8 cores busy).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Browser tests drive Chromium against a real server; on a loaded 2-core machine a page can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
