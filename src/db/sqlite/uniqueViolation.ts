/** SQLite's report of a unique violation: `UNIQUE constraint failed: table.column` (../uniqueViolation). */
import { uniqueViolationOf } from '../uniqueViolation'

function fromSqlite(err: Error): string | undefined {
  const match = /UNIQUE constraint failed: ([\w.]+)/.exec(err.message)
  // `table.column` (the first column of a composite index names the field).
  return match ? match[1]!.split(',')[0]!.split('.').pop() : undefined
}

export const uniqueViolationFieldSqlite = (err: unknown): string | undefined => uniqueViolationOf(err, fromSqlite)
