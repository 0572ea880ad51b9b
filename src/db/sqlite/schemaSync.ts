/**
 * Schema sync for the embedded SQLite engine, in every environment (Payload's own push runs
 * only outside production and would drop the tables the service keeps beside Payload's).
 * Tables the service manages with raw SQL (full-text index, counters) are named with one of
 * RAW_TABLE_PREFIXES and are left alone. A change that would lose data refuses to start.
 */
import type { Payload } from 'payload'

import { dropDuplicateNotificationsSqlite } from './notificationDuplicates'
import { retirePayloadJobsSqlite } from './retiredPayloadJobs'
import { connection } from './connection'
import { checkTableNames } from './tables'

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

export async function syncSqliteSchema(payload: Payload, file: string): Promise<void> {
  const adapter = payload.db as unknown as SqliteAdapterLike
  // The service's raw SQL names Payload's tables in one place; it must agree with Payload.
  checkTableNames(adapter.tableNameMap)
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
  for (const statement of statements) db.exec(statement)
}
