/**
 * The SQLite write path, one room with this one entry (.dependency-cruiser.cjs): this process's
 * write gate (./writeGate: one writer at a time, writes stopped when the log cannot be synced),
 * the log's sync before a write is answered (./walSync), its checkpoints off the serving thread
 * (./walCheckpoints, on a worker: ./libsqlWorker), and Payload's saves on the gate's one write
 * connection (./payloadWrites). docs/architecture.md tells what each wraps of Payload's adapter
 * and of @libsql/client, and why.
 */
export { onWriteGateReleased, setWriteDurability, underWriteGate, writesStopped } from './writeGate'
export { syncLog } from './walSync'
export { checkpointWhenLong, stopCheckpoints } from './walCheckpoints'
export { BUSY_TIMEOUT_MS, clientTransactionOf, closeWriteConnection, commitFailureOf, queuePayloadTransactions } from './payloadWrites'
export { libsqlWorker, type LibsqlWorkerBody } from './libsqlWorker'
