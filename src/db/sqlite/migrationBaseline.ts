/**
 * Databases made before migrations. The release before them created Payload's tables by
 * pushing the schema at start-up and recorded no migration, so its database has Payload's
 * tables and an empty payload_migrations. Such a database is compared with what the initial
 * migration creates (every table's columns, indexes and foreign keys, read with PRAGMAs from
 * both: the initial migration is run on a scratch in-memory database for the comparison).
 * When they agree, the initial migration is recorded as run without touching a table, and the
 * later migrations run as on any database. When they differ, start-up stops and names every
 * difference: the database comes from another build and is brought to the release's schema
 * first (by starting that release once), nothing is changed here.
 */
import { SQLiteSyncDialect } from '@payloadcms/db-sqlite/drizzle/sqlite-core'
import Database from 'libsql'
import type { Payload } from 'payload'

import { logger } from '../../platform/logging'
import type { MigrationFile } from '../migrationRun'
import { statement, tableExists } from './connection'

type Db = InstanceType<typeof Database>

const MIGRATIONS_TABLE = 'payload_migrations'

/** Tables beside Payload's that the comparison ignores: the service's own and SQLite's. */
const isOutsidePayload = (table: string) => table.startsWith('raw_') || table.startsWith('sqlite_')

export class SchemaMismatch extends Error {
  constructor(readonly differences: string[]) {
    super(
      `This database was made by schema push (no migration recorded) but does not have the schema of the release ` +
        `before migrations, so its initial migration cannot be recorded as run. Start that release once on it to ` +
        `bring it to its schema, then this one. Differences:\n  ${differences.join('\n  ')}`,
    )
    this.name = 'SchemaMismatch'
  }
}

/** One table as SQLite reports it, order-independent where SQLite's order does not matter. */
function describeTable(db: Db, table: string): Record<string, unknown> {
  const q = (pragma: string) => db.prepare(`PRAGMA ${pragma}("${table.replace(/"/g, '""')}")`).all() as Record<string, unknown>[]
  const columns = q('table_info')
    .map((c) => ({ name: c.name, type: String(c.type).toLowerCase(), notnull: c.notnull, default: c.dflt_value, pk: c.pk }))
    .sort((a, b) => String(a.name).localeCompare(String(b.name)))
  const indexes = q('index_list')
    .map((i) => ({
      // SQLite names the indexes of UNIQUE/PRIMARY KEY constraints itself: compared by columns.
      name: i.origin === 'c' ? i.name : `(${String(i.origin)})`,
      unique: i.unique,
      partial: i.partial,
      columns: (db.prepare(`PRAGMA index_info("${String(i.name).replace(/"/g, '""')}")`).all() as { name: unknown }[]).map((c) => c.name),
    }))
    .filter((i) => !String(i.name).startsWith('raw_'))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  const foreignKeys = q('foreign_key_list')
    .map((f) => ({ table: f.table, from: f.from, to: f.to, onUpdate: f.on_update, onDelete: f.on_delete }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  return { columns, indexes, foreignKeys }
}

function tablesOf(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name)
}

/** The schema the initial migration creates, on a scratch in-memory database. */
async function initialSchema(initial: MigrationFile): Promise<Db> {
  const scratch = new Database(':memory:')
  const dialect = new SQLiteSyncDialect()
  const db = {
    run: async (query: Parameters<SQLiteSyncDialect['sqlToQuery']>[0]) => {
      const { sql, params } = dialect.sqlToQuery(query)
      scratch.prepare(sql).run(...params)
    },
  }
  await (initial.up as (args: { db: typeof db; payload: undefined; req: undefined }) => Promise<void>)({ db, payload: undefined, req: undefined })
  return scratch
}

/** Every way the database differs from the initial migration's schema (empty: the same). */
export async function differencesFromInitial(target: Db, initial: MigrationFile): Promise<string[]> {
  const scratch = await initialSchema(initial)
  try {
    const expected = tablesOf(scratch).filter((t) => !isOutsidePayload(t))
    const present = new Set(tablesOf(target))
    const out: string[] = []
    for (const table of expected) {
      if (!present.has(table)) {
        out.push(`table ${table} is missing`)
        continue
      }
      const want = describeTable(scratch, table)
      const have = describeTable(target, table)
      for (const part of ['columns', 'indexes', 'foreignKeys'] as const) {
        if (JSON.stringify(want[part]) !== JSON.stringify(have[part])) {
          out.push(`table ${table}: ${part} are ${JSON.stringify(have[part])}, expected ${JSON.stringify(want[part])}`)
        }
      }
    }
    const known = new Set(expected)
    for (const table of present) {
      if (!known.has(table) && !isOutsidePayload(table)) out.push(`table ${table} is not in the schema`)
    }
    return out
  } finally {
    scratch.close()
  }
}

const hasRecords = (file: string) =>
  tableExists(file, MIGRATIONS_TABLE) && statement(file, `SELECT 1 FROM ${MIGRATIONS_TABLE} LIMIT 1`).get([]) !== undefined

/**
 * A database the schema push made gets the initial migration recorded as run (batch 1); any
 * other database (new, or already migrated) is left alone. Runs holding the migration lock.
 */
export async function recordPushedBaseline(payload: Payload, file: string, initial: MigrationFile, target: Db): Promise<boolean> {
  const payloadTables = tablesOf(target).filter((t) => !isOutsidePayload(t))
  if (payloadTables.length === 0 || hasRecords(file)) return false
  const differences = await differencesFromInitial(target, initial)
  if (differences.length > 0) throw new SchemaMismatch(differences)
  await payload.create({ collection: 'payload-migrations', data: { name: initial.name, batch: 1 }, overrideAccess: true })
  logger().info({ migration: initial.name }, 'migrations.baseline_recorded')
  return true
}
