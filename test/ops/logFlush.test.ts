/**
 * Logs are written through a buffered asynchronous destination (src/logging): lines logged
 * just before the process ends, by process.exit or by an uncaught error, must still reach
 * stdout, whole and in order.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const script = path.join(import.meta.dirname, 'support/logThenEnd.ts')

function run(how: 'exit' | 'throw' | 'crash', count = 1000) {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test' as const, LOG_LEVEL: 'info' }
  const out = spawnSync(process.execPath, ['--import', 'tsx', script, how, String(count)], { cwd: root, env, encoding: 'utf8', timeout: 30_000 })
  const lines = out.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
  return { status: out.status, stderr: out.stderr, lines }
}

function expectAllLines(lines: Record<string, unknown>[], count: number) {
  const completed = lines.filter((l) => l.msg === 'request.completed')
  expect(completed).toHaveLength(count)
  expect(completed.map((l) => l.n)).toEqual(Array.from({ length: count }, (_, i) => i))
  expect(lines.find((l) => l.msg === 'last.line')).toMatchObject({ n: count, level: 'info' })
}

describe('buffered logging loses no line when the process ends', () => {
  it('flushes every line written just before process.exit(0)', () => {
    const { status, lines } = run('exit')
    expect(status).toBe(0)
    expectAllLines(lines, 1000)
  })

  it('flushes every line written just before an uncaught error ends the process', () => {
    const { status, lines, stderr } = run('throw')
    expect(status).toBe(1)
    expect(stderr).toContain('boom after logging')
    expectAllLines(lines, 1000)
  })

  it('with the server crash handler: the lines, then one process.crashed line, exit code 1', () => {
    const { status, lines, stderr } = run('crash', 3)
    expect(status).toBe(1)
    expect(stderr).toContain('boom after logging')
    expectAllLines(lines, 3)
    expect(lines.at(-1)).toMatchObject({ level: 'fatal', msg: 'process.crashed', err: { message: 'boom after logging' } })
  })
})
