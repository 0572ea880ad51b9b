/**
 * A write made by another app process on the same database: a separate Node process starts
 * its own Payload on this test file's database (DATABASE_URI / DB_NAME, any engine) and
 * updates through Payload, hooks and all, as a second app instance would. This process's
 * caches learn of it only through the database.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

export type OtherProcessUpdate =
  | { collection: string; where: Record<string, unknown>; data: Record<string, unknown> }
  | { global: string; data: Record<string, unknown> }

export function updateInOtherProcess(update: OtherProcessUpdate): void {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'otherProcessUpdate.ts')], {
    cwd: root,
    env: { ...process.env, OTHER_PROCESS_UPDATE: JSON.stringify(update), LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 120_000,
  })
  if (run.status !== 0) throw new Error(`the other process failed (${run.status}):\n${run.stderr}${run.stdout}`)
}
