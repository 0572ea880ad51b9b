/**
 * A write made by another app process on the same database: a separate Node process starts
 * its own Payload on this test file's database (DATABASE_URI / DB_NAME, any engine) and
 * updates through Payload, hooks and all, as a second app instance would. This process's
 * caches learn of it only through the database.
 */
import { execFile, spawn } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

import { TSX } from './tsxChild'

const root = path.resolve(import.meta.dirname, '../..')

export type OtherProcessUpdate =
  | { collection: string; where: Record<string, unknown>; data: Record<string, unknown> }
  | { global: string; data: Record<string, unknown> }

/**
 * Asynchronous: this process keeps serving meanwhile. A synchronous spawn would freeze it, and
 * with it any write transaction it has open (a follow-up saving a thumbnail), so the other
 * process would wait on that transaction's lock for nothing.
 */
export async function updateInOtherProcess(update: OtherProcessUpdate): Promise<void> {
  const run = await promisify(execFile)(process.execPath, [...TSX, path.join(import.meta.dirname, 'otherProcessUpdate.ts')], {
    cwd: root,
    env: { ...process.env, OTHER_PROCESS_UPDATE: JSON.stringify(update), LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 120_000,
  }).then(
    () => null,
    (e: { code?: number; stdout?: string; stderr?: string }) => e,
  )
  if (run) throw new Error(`the other process failed (${run.code}):\n${run.stderr ?? ''}${run.stdout ?? ''}`)
}

/** A second app process that refreshes when told to (./otherProcessRefresh): start it, then `refresh(token)` races yours. */
export async function otherProcessRefresher(): Promise<{ refresh(token: string): Promise<string>; stop(): void }> {
  const child = spawn(process.execPath, [...TSX, path.join(import.meta.dirname, 'otherProcessRefresh.ts')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const waiting: ((line: string) => void)[] = []
  let buffer = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8')
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i)
      buffer = buffer.slice(i + 1)
      const next = waiting.shift()
      if (next) next(line)
      else lines.push(line)
    }
  })
  const nextLine = () => new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : waiting.push(resolve)))
  const ready = await nextLine()
  if (ready !== 'ready') throw new Error(`the other process did not start: ${ready}`)
  return {
    refresh(token) {
      child.stdin!.write(`${token}\n`)
      return nextLine()
    },
    stop: () => void child.kill(),
  }
}
