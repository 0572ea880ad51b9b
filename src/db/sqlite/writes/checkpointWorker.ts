/**
 * The checkpoint worker's body (./walCheckpoints; run by ./libsqlWorker, self-contained): on each
 * message, one PASSIVE checkpoint of the log on a connection of its own, answered with SQLite's
 * three counts; on 'stop', the connection closes and the worker ends.
 */
import type { LibsqlWorkerBody } from './libsqlWorker'

/** What the worker answers for each checkpoint. */
export type CheckpointResult = { busy?: number; log?: number; done?: number; error?: string }

export const checkpointWorker: LibsqlWorkerBody<{ file: string }> = ({ data, port, Database }) => {
  const db = new Database(data.file)
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw(true)
  port?.on('message', (message: unknown) => {
    if (message === 'stop') {
      db.close()
      port.close()
      return
    }
    try {
      const [busy, log, done] = checkpoint.get() as number[]
      port.postMessage({ busy, log, done } satisfies CheckpointResult)
    } catch (err) {
      port.postMessage({ error: String((err as Error | undefined)?.message ?? err) } satisfies CheckpointResult)
    }
  })
}
