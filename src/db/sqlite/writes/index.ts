/**
 * The SQLite write path, one room with this one entry (.dependency-cruiser.cjs): SqliteWrites
 * (./sqliteWrites: the gate, the log's sync, checkpoints, Payload's saves), made by the engine's
 * adapter (../operations) and found again from the Payload instance it serves (`writesOf`), and
 * the worker threads that open SQLite (./libsqlWorker). docs/architecture.md tells what each wraps
 * of Payload's adapter and of @libsql/client, and why.
 */
import type { Payload } from 'payload'

import { SqliteWrites } from './sqliteWrites'

export { SqliteWrites } from './sqliteWrites'
export { DurabilityUnchecked } from './writeGate'
export { clientTransactionOf } from './payloadWrites'
export { libsqlWorker, type LibsqlWorkerBody } from './libsqlWorker'

/**
 * One per file in this process, made when the engine makes an adapter for it. Every writer of the
 * process to a file must queue at one gate: the service's raw writes share one connection per file
 * (../connection), and an in-process writer that waited natively instead would block the loop the
 * holder needs. So two Payload instances on one file share it; on two files, each has its own.
 */
const byFile = new Map<string, SqliteWrites>()

export function writesTo(file: string): SqliteWrites {
  let writes = byFile.get(file)
  if (!writes) byFile.set(file, (writes = new SqliteWrites(file)))
  return writes
}

/** The write path (and so the file) of the database `payload` runs on: the engine's every operation starts here. */
export const writesOf = (payload: Pick<Payload, 'db'>): SqliteWrites => SqliteWrites.of(payload.db)
