import path from 'node:path'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  resolve: { alias: { '@payload-config': path.resolve(import.meta.dirname, 'payload.config.ts') } },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // Each file gets its own process and its own fresh database.
    pool: 'forks',
    // Browser tests drive Chromium against a real server; on a loaded 2-core machine a page can take tens of seconds.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
})
