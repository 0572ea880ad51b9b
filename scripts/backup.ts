/**
 * npm run backup -- <file>    an online, consistent copy of the SQLite database (the server
 *                             may keep running and writing), verified before it is kept.
 * MongoDB: use mongodump (docs/operations.md, "Backups").
 */
import { BackupError, backupDatabase, liveBytes } from '../src/db/sqlite/backup'
import { progress } from './progress'
import { fileArgumentOrExit, sqliteFileOrExit } from './sqliteTarget'

const target = fileArgumentOrExit('backup')
const source = sqliteFileOrExit('backup', 'mongodump --oplog')
try {
  const started = Date.now()
  const bar = progress('backup', Math.round(liveBytes(source) / 1024 / 1024), 'MB')
  const result = await backupDatabase(source, target, (bytes) => bar.update(Math.round(bytes / 1024 / 1024)))
  bar.stop()
  process.stdout.write(`${JSON.stringify({ msg: 'backup.done', file: target, bytes: result.bytes, content: result.content, ms: Date.now() - started })}\n`)
} catch (err) {
  process.stderr.write(`backup failed: ${err instanceof BackupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
}
