/**
 * A write made by another app process on the same database: a separate Node process starts
 * its own Payload on this test file's database (DATABASE_URI / DB_NAME, any engine) and
 * updates through Payload, hooks and all, as a second app instance would. This process's
 * caches learn of it only through the database.
 */
import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'

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
  const run = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'otherProcessUpdate.ts')], {
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
