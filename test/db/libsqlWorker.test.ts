/**
 * The worker bodies (src/db/sqlite/writes/libsqlWorker.ts) run by their source text, so each must
 * be self-contained: it names nothing outside its scope, declares no named inner function (a
 * transpiler keeping names adds a helper call there, which the worker lacks), and its script parses
 * on its own. Each also runs for real: the fold (test/db/walCheckpoints.test.ts), the backup's copy
 * (test/ops/backup.test.ts, through the compiled scripts).
 */
import { closeSync, mkdtempSync, openSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Script } from 'node:vm'

import { transform } from 'esbuild'
import { describe, expect, it } from 'vitest'

import { vacuumWorker } from '../../src/db/sqlite/backupWorker'
import { checkpointWorker } from '../../src/db/sqlite/writes/checkpointWorker'
import { libsqlWorker, workerScript } from '../../src/db/sqlite/writes/libsqlWorker'
import { syncWorker } from '../../src/db/sqlite/writes/syncWorker'

const BODIES = { checkpointWorker, syncWorker, vacuumWorker }

describe('worker bodies', () => {
  for (const [name, body] of Object.entries(BODIES)) {
    it(`${name}: self-contained, and its script parses on its own`, async () => {
      const source = body.toString()
      expect(source).not.toMatch(/\b__\w+\(|\bfunction\s+\w+\s*\(|\b(const|let)\s+\w+\s*=\s*(async\s*)?(\([^)]*\)|\w+)\s*=>/)
      expect(() => new Script(workerScript(body as never))).not.toThrow()
      // As a name-keeping transpiler (tsx) would emit it: nothing is added inside the body.
      const kept = (await transform(`const body = ${source}`, { loader: 'js', keepNames: true })).code
      // (One call names `body` itself; any other would be inside it.)
      expect(kept.match(/__name\(/g)).toHaveLength(1)
    })
  }

  it('the checkpoint body answers a checkpoint and stops on request', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'worker-'))
    const worker = libsqlWorker(checkpointWorker, { file: path.join(dir, 'w.db') })
    const answer = new Promise((resolve) => worker.once('message', resolve))
    worker.postMessage('checkpoint')
    expect(await answer).toMatchObject({ busy: expect.any(Number) })
    const exited = new Promise((resolve) => worker.once('exit', resolve))
    worker.postMessage('stop')
    expect(await exited).toBe(0)
  })

  it("the sync body answers each sync, writes a successful one's number where the serving thread reads it, and answers a failure by message only", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'worker-'))
    const fd = openSync(path.join(dir, 'log'), 'w')
    const ended = new Int32Array(new SharedArrayBuffer(4))
    const worker = libsqlWorker(syncWorker, { ended: ended.buffer as SharedArrayBuffer })
    const ask = (seq: number, on: number) => {
      const answer = new Promise((resolve) => worker.once('message', resolve))
      worker.postMessage({ seq, fd: on })
      return answer
    }
    try {
      expect(await ask(1, fd)).toEqual({ seq: 1 })
      expect(Atomics.load(ended, 0)).toBe(1)
      closeSync(fd)
      expect(await ask(2, fd)).toEqual({ seq: 2, error: { code: 'EBADF', message: expect.stringContaining('EBADF') } })
      expect(Atomics.load(ended, 0)).toBe(1)
    } finally {
      await worker.terminate()
    }
  })
})
