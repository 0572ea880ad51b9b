/**
 * Logs are written through a buffered asynchronous destination (src/platform/logging): lines logged
 * just before the process ends, by process.exit or by an uncaught error, must still reach
 * stdout, whole and in order.
 */
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

import { childEnv } from '../support/childEnv'

const root = path.resolve(import.meta.dirname, '../..')
const script = path.join(import.meta.dirname, 'support/logThenEnd.ts')

function run(how: 'exit' | 'throw' | 'crash', count = 1000) {
  const env = { ...childEnv(), NODE_ENV: 'test' as const, LOG_LEVEL: 'info' }
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

describe('a busy process writes its lines as fast as it makes them', () => {
  it('with stdout a file, the lines of 200 busy turns are written by the time the turns end, not at exit', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'log-pace-')), 'stdout.log')
    const out = openSync(file, 'w')
    const env = { ...childEnv(), NODE_ENV: 'test' as const, LOG_LEVEL: 'info' }
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support/logUnderLoad.ts'), '200', '100'], {
      cwd: root, env, stdio: ['ignore', out, 'pipe'], encoding: 'utf8', timeout: 60_000,
    })
    closeSync(out)
    expect(child.status).toBe(0)
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
    // Every line in the end (the exit flush), whole and in order.
    expect(lines).toHaveLength(20_000)
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ requestId: 'req_199_99', msg: 'request.completed' })
    // And before the exit, within 20 writes of the last turn (writes of at most 4 KiB, about one a
    // turn, had written half of them; counted in writes, so a loaded machine reads the same).
    const written = Number(/written (\d+)/.exec(child.stderr)?.[1])
    expect(written / Buffer.byteLength(readFileSync(file))).toBeGreaterThan(0.9)
  }, 90_000)
})

describe('a short line left behind a blocked write', () => {
  it('is written at the next flush once the write completes, not when the process ends', async () => {
    const env = { ...childEnv(), NODE_ENV: 'test' as const, LOG_LEVEL: 'info' }
    // The child's stdout is a pipe nobody reads for 600 ms: its first write blocks on the full
    // pipe across several flush periods, and its short last line is handed over meanwhile.
    const command = `${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(path.join(import.meta.dirname, 'support/logBehindFullPipe.ts'))} | (sleep 0.6; cat)`
    const child = spawn('sh', ['-c', command], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] })
    let text = ''
    child.stdout!.on('data', (c: Buffer) => (text += c.toString()))
    try {
      // The child lives 3 s (and flushes everything at exit): the line must come well before.
      await expect.poll(() => text.includes('"last.line"'), { timeout: 2_000, interval: 20 }).toBe(true)
      expect(text.split('\n').filter((l) => l.includes('request.completed'))).toHaveLength(400)
    } finally {
      child.kill()
    }
  }, 30_000)
})
