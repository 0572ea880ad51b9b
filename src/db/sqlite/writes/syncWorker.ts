/**
 * The log sync's worker body (./walSync; run by ./libsqlWorker, self-contained): on each request,
 * an fsync of the descriptor it names. A sync that succeeded is written to the memory the threads
 * share (its number, in `ended`) before it is answered by message: the serving thread reads it
 * between two statements (../../../platform/loopSlices `beforeEachStatement`), a turn of the
 * loop before the message would reach it. A failure is answered by message only.
 */
import type { LibsqlWorkerBody } from './libsqlWorker'

/** A sync asked for: its number (from 1, rising) and the log's descriptor (the process's, open on the serving thread). */
export type SyncRequest = { seq: number; fd: number }
/** Its answer: the error's code and message when the fsync failed. */
export type SyncAnswer = { seq: number; error?: { code?: string; message: string } }

export const syncWorker: LibsqlWorkerBody<{ ended: SharedArrayBuffer }> = ({ data, port, fs }) => {
  const ended = new Int32Array(data.ended)
  port?.on('message', (request: SyncRequest) => {
    try {
      fs.fsyncSync(request.fd)
    } catch (err) {
      const { code, message } = err as NodeJS.ErrnoException
      port.postMessage({ seq: request.seq, error: { code, message } } satisfies SyncAnswer)
      return
    }
    Atomics.store(ended, 0, request.seq)
    port.postMessage({ seq: request.seq } satisfies SyncAnswer)
  })
}
