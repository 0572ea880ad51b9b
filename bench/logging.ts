/**
 * What one `request.completed` line costs in the production configuration (level info,
 * pino's buffered asynchronous destination), with and without the redaction paths
 * src/platform/logging.ts sets, written to /dev/null so the disk is not measured. Production writes
 * request.completed through logRequestCompleted: the fixed-shape line without redaction
 * (the second variant); free-form lines keep redaction (the first).
 * Run: npx tsx bench/logging.ts  (prints ns per line for each variant). The loop yields to the
 * event loop every 100 lines, as a server does between requests, so the writes are counted.
 */
import { openSync } from 'node:fs'
import { setImmediate as yieldToLoop } from 'node:timers/promises'

import pino from 'pino'

const SECRET_KEYS = ['password', 'currentPassword', 'newPassword', 'passwordHash', 'hash', 'salt', 'accessToken', 'refreshToken', 'token', 'tokenHash', 'authorization', 'cookie', 'secret']
const redactPaths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`])
const LINES = Number(process.env.LOG_BENCH_LINES ?? 300_000)

function build(redact: boolean, sync: boolean) {
  const dest = pino.destination({ dest: openSync('/dev/null', 'w'), sync, minLength: sync ? 0 : 4096 })
  const log = pino(
    {
      level: 'info',
      base: { pid: process.pid },
      messageKey: 'msg',
      timestamp: () => `,"ts":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      ...(redact ? { redact: { paths: redactPaths, censor: '[redacted]' } } : {}),
    },
    dest,
  )
  return { log, dest }
}

async function run(name: string, redact: boolean, sync: boolean): Promise<number> {
  const { log, dest } = build(redact, sync)
  const fields = { requestId: 'req_01M84C2HNPB801D1HZ82TJN6AH', route: 'GET /api/v1/content' }
  // Warm-up, then measure.
  for (let i = 0; i < 20_000; i++) log.info({ ...fields, userId: undefined, statusCode: 200, durationMs: 3 }, 'request.completed')
  const started = process.hrtime.bigint()
  for (let i = 0; i < LINES; i++) {
    log.info({ ...fields, userId: undefined, statusCode: 200, durationMs: 3 }, 'request.completed')
    // As a server does between requests: let the buffered writes go out.
    if (i % 100 === 99) await yieldToLoop()
  }
  const ns = Number(process.hrtime.bigint() - started) / LINES
  dest.flushSync()
  console.log(`${name.padEnd(44)} ${ns.toFixed(0).padStart(6)} ns/line  (${Math.round(1e9 / ns).toLocaleString('en-US')} lines/s)`)
  return ns
}

console.log(`request.completed, ${LINES.toLocaleString('en-US')} lines each, level info, to /dev/null`)
const asyncRedacted = await run('async buffered, with redaction (free-form lines)', true, false)
const asyncPlain = await run('async buffered, no redaction (request.completed)', false, false)
await run('sync write per line, with redaction (before)', true, true)
console.log(`redaction costs ${(asyncRedacted - asyncPlain).toFixed(0)} ns per line (${(((asyncRedacted - asyncPlain) / asyncPlain) * 100).toFixed(0)}%)`)
