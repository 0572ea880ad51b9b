/**
 * The SQLite file a maintenance command works on, from the same variables the server reads.
 * On MongoDB the command names the tool to use instead and exits 2.
 */
import { resolveDatabaseUri } from '../src/platform/config/databaseUri'
import { sqliteFileOf } from '../src/db/sqlite/connection'

export function sqliteFileOrExit(command: string, mongoTool: string): string {
  const { DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME } = process.env
  const uri = resolveDatabaseUri({ DATABASE_URI, DATABASE_HOST, DATABASE_ROOT_USER, DATABASE_ROOT_PASSWORD, DB_NAME }, [])
  if (!uri.startsWith('file:')) {
    process.stderr.write(`${command}: the database is MongoDB; use ${mongoTool} (see docs/operations.md, "Backups")\n`)
    process.exit(2)
  }
  return sqliteFileOf(uri)
}

/** The command's one file argument, or its usage line and exit 2. */
export function fileArgumentOrExit(command: string): string {
  const file = process.argv[2]
  if (!file) {
    process.stderr.write(`usage: npm run ${command} -- <file>\n`)
    process.exit(2)
  }
  return file
}
