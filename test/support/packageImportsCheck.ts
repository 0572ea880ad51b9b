/**
 * Run by test/packageImports.test.ts in a process of its own: registers the package-import hook
 * in its checking mode, loads what the server loads (Payload's config: Payload, its SQLite
 * adapter, drizzle-orm, ...; Next's server), and prints what the hook answered.
 */
import * as nodeModule from 'node:module'

import { packageImportHooks } from '../../src/platform/packageImports'

const hooks = packageImportHooks(true)
;(nodeModule as unknown as { registerHooks: (h: object) => void }).registerHooks({ resolve: hooks.resolve })
await import('../../payload.config')
await import('next')
await import('@payloadcms/db-sqlite')
process.stdout.write(JSON.stringify(hooks.stats))
process.exit(0)
