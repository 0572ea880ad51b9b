/**
 * SQLite's start-up schema step: the checked-in migrations (src/db/sqlite/migrations) under
 * the cross-process lock (./migrationLock), after recognising a database the schema push of
 * the release before made (./migrationBaseline). drizzle-kit is never loaded here: the
 * migrations are SQL, and the baseline compares with PRAGMAs.
 */
import type { Payload } from 'payload'

import { migrations } from './migrations'
import { migrateUnderLock, type MigrationFile } from '../migrationRun'
import { connection, statement, tableExists } from './connection'
import { recordPushedBaseline } from './migrationBaseline'
import { withSqliteMigrationLock } from './migrationLock'
import { checkTableNames } from './tables'

export const SQLITE_MIGRATIONS: readonly MigrationFile[] = migrations

export class DevPushDatabase extends Error {
  constructor() {
    super(
      "This database was changed by Payload's development push (a 'dev' record, batch -1, in payload_migrations): " +
        'its schema is not what the migrations made. Use a database made by migrations (or by the release before them).',
    )
    this.name = 'DevPushDatabase'
  }
}

/** The migrations this database has run; refuses one that Payload's dev push changed. */
function appliedSqlite(file: string): Set<string> {
  if (!tableExists(file, 'payload_migrations')) return new Set()
  const rows = statement(file, 'SELECT name, batch FROM payload_migrations').all([]) as [string | null, number | null][]
  if (rows.some(([, batch]) => Number(batch) === -1)) throw new DevPushDatabase()
  return new Set(rows.map(([name]) => String(name)))
}

/** Pending migrations, then `afterMigrate`, holding the lock. */
export async function migrateSqlite(payload: Payload, file: string, afterMigrate?: () => Promise<void>): Promise<void> {
  // The service's raw SQL names Payload's tables in one place; it must agree with Payload.
  checkTableNames((payload.db as unknown as { tableNameMap: Map<string, string> }).tableNameMap)
  await migrateUnderLock(payload, {
    migrations: SQLITE_MIGRATIONS,
    lock: (work) => withSqliteMigrationLock(file, work),
    applied: async () => appliedSqlite(file),
    beforeMigrate: async () => void (await recordPushedBaseline(payload, file, SQLITE_MIGRATIONS[0]!, connection(file))),
    afterMigrate,
  })
}
