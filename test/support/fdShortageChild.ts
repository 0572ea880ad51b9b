/**
 * Entry point of the descriptor-shortage test (test/db/logSyncFailure.test.ts), run under a low
 * `ulimit -n`: a WAL database written under the write gate with the engine's log sync, while every
 * free descriptor is taken. Prints one JSON line of what it saw.
 */
import { closeSync, openSync } from 'node:fs'

import Database from 'libsql'

import { writesTo } from '../../src/db/sqlite/writes'
import { OPEN_PATIENCE_MS } from '../../src/db/sqlite/writes/walSync'
import { logger } from '../../src/platform/logging'

const file = process.argv[2]!
const db = new Database(file)
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA synchronous = NORMAL')
db.exec('CREATE TABLE t (n INTEGER)')
// Its write path, as the engine's: the gate, the log's sync before a write is answered.
const writes = writesTo(file)
const insert = (n: number) => writes.under(() => db.prepare('INSERT INTO t (n) VALUES (?)').run(n))
const outcome = (write: Promise<unknown>) =>
  write.then(
    () => 'answered',
    (err: { status?: number; code?: string; details?: unknown; headers?: Record<string, string> }) => ({
      status: err.status,
      code: err.code,
      details: err.details,
      retryAfter: err.headers?.['Retry-After'],
    }),
  )

await insert(0) // the first sync (the directory's entry too) with descriptors to spare
logger().warn('the logger is made before the descriptors run out')
const taken: number[] = []
/** Takes every free descriptor (again: one another part of this process let go meanwhile). */
function takeAll(): void {
  for (;;) {
    try {
      taken.push(openSync('/dev/null', 'r'))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EMFILE') return
      throw err
    }
  }
}
takeAll()
// A descriptor comes free 100 ms into the wait: the write is answered once it is synced.
const spare = taken.pop()!
setTimeout(() => closeSync(spare), 100)
const started = Date.now()
const first = await outcome(insert(1))
const firstMs = Date.now() - started
takeAll()
// None comes free: after the patience, that write's caller is told; writes are not stopped.
const second = await outcome(insert(2))
const stopped = Boolean(writes.stopped)
for (const fd of taken) closeSync(fd)
const third = await outcome(insert(3))
const rows = db.prepare('SELECT n FROM t ORDER BY n').raw(true).all()
process.stdout.write(`${JSON.stringify({ taken: taken.length, first, firstMs, second, patienceMs: OPEN_PATIENCE_MS, stopped, third, rows })}\n`)
