/**
 * The few calls the search's readers (./searchCorpus, ./wordReading) make of the service's
 * connection (./connection): rows as arrays, through its prepared-statement cache.
 */
import Database from 'libsql'

import { connection, statement } from './connection'

export type SqlReader = {
  /** The first row, as an array. */
  get(sql: string, args?: unknown[]): unknown[] | undefined
  all(sql: string, args?: unknown[]): unknown[][]
  run(sql: string, args?: unknown[]): void
  exec(sql: string): void
  /** The connection object, to tell a reopened connection from the one before. */
  readonly handle: object
}

type Statement = Database.Statement<unknown[]>

const call = <T>(stmt: Statement, method: 'get' | 'all' | 'run', args: unknown[]): T =>
  (stmt[method] as (...a: unknown[]) => T).apply(stmt, args)

/** The service's own connection to `file`. */
export function serviceReader(file: string): SqlReader {
  return {
    get: (sql, args = []) => call(statement(file, sql), 'get', args),
    all: (sql, args = []) => call(statement(file, sql), 'all', args),
    run: (sql, args = []) => void call(statement(file, sql), 'run', args),
    exec: (sql) => void connection(file).exec(sql),
    get handle() {
      return connection(file)
    },
  }
}
