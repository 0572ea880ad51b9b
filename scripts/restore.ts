/**
 * npm run restore -- <file>   puts a backup in place of the SQLite database. The server must
 *                             be stopped (refused while any connection has the file open);
 *                             the file must pass integrity_check and hold the service's tables.
 * MongoDB: use mongorestore (README, "Backups").
 */
import { resolveDatabaseUri } from '../src/config/databaseUri'
import { sqliteFileOf } from '../src/db/sqlite/connection'
import { BackupError, restoreDatabase } from '../src/db/sqlite/backup'

const source = process.argv[2]
if (!source) {
  process.stderr.write('usage: npm run restore -- <file>\n')
  process.exit(2)
}
const { DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME } = process.env
const uri = resolveDatabaseUri({ DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME }, [])
if (!uri.startsWith('file:')) {
  process.stderr.write('restore: the database is MongoDB; use mongorestore --oplogReplay (see README, "Backups")\n')
  process.exit(2)
}
try {
  const live = sqliteFileOf(uri)
  const { content } = restoreDatabase(source, live)
  process.stdout.write(`${JSON.stringify({ msg: 'restore.done', file: source, database: live, content })}\n`)
} catch (err) {
  process.stderr.write(`restore refused: ${err instanceof BackupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
}
