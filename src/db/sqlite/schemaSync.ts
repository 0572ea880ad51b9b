/**
 * Schema sync for the embedded SQLite engine, in every environment (Payload's own push runs
 * only outside production and would drop the tables the service keeps beside Payload's).
 * Tables the service manages with raw SQL (full-text index, counters) are named with one of
 * RAW_TABLE_PREFIXES and are left alone. A change that would lose data refuses to start.
 * drizzle-kit (a 14 MB module whose parse leaves tens of MB a process never gets back) is
 * loaded only when the schema's fingerprint (./schemaFingerprint) differs from the one
 * stored after the last successful sync: a restart with the same schema does not push.
 */
import type { Payload } from 'payload'

import { dropDuplicateNotificationsSqlite } from './notificationDuplicates'
import { retirePayloadJobsSqlite } from './retiredPayloadJobs'
import { connection, statement, tableExists } from './connection'
import { schemaFingerprint } from './schemaFingerprint'
import { checkTableNames, SCHEMA_SYNC_TABLE } from './tables'

/** Tables created with raw SQL by src/db modules; schema sync never touches them. */
export const RAW_TABLE_PREFIXES = ['raw_']

type DrizzleKit = {
  pushSchema: (
    schema: Record<string, unknown>,
    drizzle: unknown,
  ) => Promise<{ hasDataLoss: boolean; warnings: string[]; statementsToExecute: string[] }>
}

type SqliteAdapterLike = {
  schema: Record<string, unknown>
  tableNameMap: Map<string, string>
  drizzle: unknown
  requireDrizzleKit(): DrizzleKit
}

const touchesRawTable = (text: string) =>
  RAW_TABLE_PREFIXES.some((prefix) => new RegExp(`[\`"'\\s(]${prefix}`).test(text))

/** drizzle-kit draws a progress spinner on stdout, which must carry only JSON log lines. */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const write = process.stdout.write
  process.stdout.write = (() => true) as typeof process.stdout.write
  try {
    return await work()
  } finally {
    process.stdout.write = write
  }
}

function syncedFingerprint(file: string): string | undefined {
  if (!tableExists(file, SCHEMA_SYNC_TABLE)) return undefined
  const row = statement(file, `SELECT fingerprint FROM ${SCHEMA_SYNC_TABLE} WHERE name = 'payload'`).get([]) as [string] | undefined
  return row?.[0]
}

/**
 * Created only after a push: drizzle-kit asks interactively whether a new table is a rename
 * of one it does not know (a raw_ table), and nobody answers a server's prompt. No CHECK
 * constraint: drizzle-kit's introspection then sees changed checks on other tables and
 * rebuilds them.
 */
function recordSync(file: string, fingerprint: string): void {
  connection(file).exec(
    `CREATE TABLE IF NOT EXISTS ${SCHEMA_SYNC_TABLE} (name TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, synced_at TEXT NOT NULL)`,
  )
  statement(
    file,
    `INSERT INTO ${SCHEMA_SYNC_TABLE} (name, fingerprint, synced_at) VALUES ('payload', ?, ?)
     ON CONFLICT (name) DO UPDATE SET fingerprint = excluded.fingerprint, synced_at = excluded.synced_at`,
  ).run([fingerprint, new Date().toISOString()])
}

/** Brings the database to Payload's schema; returns whether drizzle-kit ran (false: the schema was already synced). */
export async function syncSqliteSchema(payload: Payload, file: string): Promise<boolean> {
  const adapter = payload.db as unknown as SqliteAdapterLike
  // The service's raw SQL names Payload's tables in one place; it must agree with Payload.
  checkTableNames(adapter.tableNameMap)
  const fingerprint = schemaFingerprint(adapter.schema)
  if (syncedFingerprint(file) === fingerprint) return false
  const { pushSchema } = adapter.requireDrizzleKit()
  // Payload's jobs tables left the schema; their unfinished follow-ups move to the outbox first.
  retirePayloadJobsSqlite(file)
  // Notifications became unique per (content, kind); copies left by double-run jobs must go first.
  dropDuplicateNotificationsSqlite(file)
  const { statementsToExecute, warnings } = await quietly(() => pushSchema(adapter.schema, adapter.drizzle))
  const statements = statementsToExecute.filter((s) => !touchesRawTable(s))
  const lossy = warnings.filter((w) => !touchesRawTable(w))
  if (lossy.length > 0) {
    throw new Error(`The database schema change would lose data; migrate it by hand first:\n${lossy.join('\n')}`)
  }
  const db = connection(file)
  for (const sql of statements) db.exec(sql)
  recordSync(file, fingerprint)
  return true
}
