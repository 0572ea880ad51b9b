/**
 * The backup worker's body (./backup; run by ./writes' libsqlWorker, self-contained): `VACUUM INTO`
 * the target on a connection of its own, so the calling thread can report the copy's growth while
 * SQLite writes it (the statement itself offers no progress).
 */
import type { LibsqlWorkerBody } from './writes'

export const vacuumWorker: LibsqlWorkerBody<{ source: string; target: string }> = ({ data, Database }) => {
  const db = new Database(data.source)
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    db.prepare('VACUUM INTO ?').run(data.target)
  } finally {
    db.close()
  }
}
