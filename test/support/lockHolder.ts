/**
 * Another process holding an SQLite file's write lock, for the tests of waiting for it on a timer
 * (test/db/writeLock.test.ts, test/db/writeOutsideTransaction.test.ts).
 */
import { spawn } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const children: { kill(): void }[] = []

/** A second process that takes `file`'s write lock (running `sql` inside it, if given) and holds it until `release()`. */
export function lockHolder(file: string, sql?: string): { held: Promise<void>; released: Promise<void>; release(): void } {
  const script = `
    const Database = require('libsql')
    const db = new Database(${JSON.stringify(file)})
    db.exec('BEGIN IMMEDIATE')
    ${sql ? `db.exec(${JSON.stringify(sql)})` : ''}
    process.stdout.write('held\\n')
    process.stdin.once('data', () => { db.exec('COMMIT'); db.close(); process.exit(0) })
  `
  const child = spawn(process.execPath, ['-e', script], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] })
  children.push(child)
  const held = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { held, released, release: () => child.stdin.write('go\n') }
}

/** Ends every holder still running (a test's afterEach). */
export function killLockHolders(): void {
  for (const child of children.splice(0)) child.kill()
}

/**
 * How many of five 5 ms timer turns ran while `waiting` was still unsettled: 5 when the loop kept
 * turning beside it; fewer when a native busy wait held the loop until it settled (its answer,
 * success or failure, comes before the held timers).
 */
export async function timerTurnsWhile(waiting: Promise<unknown>): Promise<number> {
  let settled = false
  void waiting.then(
    () => (settled = true),
    () => (settled = true),
  )
  let turns = 0
  for (let i = 0; i < 5; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5))
    if (!settled) turns++
  }
  return turns
}
