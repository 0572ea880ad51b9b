/**
 * npm run restore -- <file>   puts a backup in place of the SQLite database. The server must
 *                             be stopped (refused while any connection has the file open);
 *                             the file must pass integrity_check and hold the service's tables.
 * MongoDB: use mongorestore (docs/operations.md, "Backups").
 */
import { BackupError, restoreDatabase } from '../src/db/sqlite/backup'
import { fileArgumentOrExit, sqliteFileOrExit } from './sqliteTarget'

const source = fileArgumentOrExit('restore')
const live = sqliteFileOrExit('restore', 'mongorestore --oplogReplay')
try {
  const { content } = restoreDatabase(source, live)
  process.stdout.write(`${JSON.stringify({ msg: 'restore.done', file: source, database: live, content })}\n`)
} catch (err) {
  process.stderr.write(`restore refused: ${err instanceof BackupError ? err.message : err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
}
