/**
 * npm run migrate              the pending migrations of the database DATABASE_URI names, run
 * (node dist/scripts/migrate.js in the image) now, without starting the server: the same step
 *                              as start-up (src/db/<engine>/migrate.ts: its lock, the
 *                              baseline of a database the release's schema push made), minus
 *                              the bootstrap. Start-up runs them anyway; this is for doing it
 *                              ahead of a deploy. New migrations: npm run migrate:create -- <name>.
 */
import { resolvePackageImportsQuickly } from '../src/platform/packageImports'

// Before Payload loads, as the server does (src/platform/packageImports).
resolvePackageImportsQuickly()

try {
  const { getPayload } = await import('payload')
  const config = (await import('../payload.config')).default
  // The start-up hook (bootstrap, seed) is not this command's.
  const payload = await getPayload({ config, disableOnInit: true })
  const { closeDatabase, engine } = await import('../src/db/engine')
  await engine().prepare(payload)
  await closeDatabase(payload)
  process.exit(0)
} catch (err) {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
}
