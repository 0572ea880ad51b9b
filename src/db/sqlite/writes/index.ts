/**
 * The SQLite write path, one room with this one entry (.dependency-cruiser.cjs): `writesTo(file)`,
 * this process's SqliteWrites for a file (./sqliteWrites: the gate, the log's sync, checkpoints,
 * Payload's saves), and the worker threads that open SQLite (./libsqlWorker). docs/architecture.md
 * tells what each wraps of Payload's adapter and of @libsql/client, and why.
 */
import { SqliteWrites } from './sqliteWrites'

export { SqliteWrites } from './sqliteWrites'
export { DurabilityUnchecked } from './writeGate'
export { clientTransactionOf } from './payloadWrites'
export { libsqlWorker, type LibsqlWorkerBody } from './libsqlWorker'

/**
 * One per file, made at its first use. The process's writers to a file must all queue at one
 * gate (an in-process writer that waited natively instead would block the loop the holder needs):
 * the engine, Payload's adapter, the change feed and the tests find the same one here.
 */
const byFile = new Map<string, SqliteWrites>()

export function writesTo(file: string): SqliteWrites {
  let writes = byFile.get(file)
  if (!writes) byFile.set(file, (writes = new SqliteWrites(file)))
  return writes
}
