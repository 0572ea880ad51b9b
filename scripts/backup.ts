/**
 * npm run backup -- <file>    an online, consistent copy of the SQLite database (the server
 *                             may keep running and writing), verified before it is kept.
 * MongoDB: use mongodump (README, "Backups").
 */
import { resolveDatabaseUri } from '../src/config/databaseUri'
import { sqliteFileOf } from '../src/db/sqlite/connection'
import { BackupError, backupDatabase, liveBytes } from '../src/db/sqlite/backup'
import { progress } from './progress'

const target = process.argv[2]
if (!target) {
  process.stderr.write('usage: npm run backup -- <file>\n')
  process.exit(2)
}
const { DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME } = process.env
const uri = resolveDatabaseUri({ DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME }, [])
if (!uri.startsWith('file:')) {
  process.stderr.write('backup: the database is MongoDB; use mongodump --oplog (see README, "Backups")\n')
  process.exit(2)
}
const source = sqliteFileOf(uri)
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
