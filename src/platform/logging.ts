import { fstatSync, writeSync } from 'node:fs'

import pino, { type Logger } from 'pino'

import { getConfig } from './config'

/**
 * Keys whose values must never reach a log line, wherever they sit in a logged object.
 * Redaction is the safety net; the code also never logs request bodies of auth endpoints.
 */
const SECRET_KEYS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'hash',
  'salt',
  'accessToken',
  'refreshToken',
  'token',
  'tokenHash',
  'authorization',
  'cookie',
  'secret',
]
const redactPaths = SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`])

type Sink = { write(line: string): void }
let sink: Sink | undefined

/** Tests capture log lines here; otherwise lines go to stdout. */
export function captureLogs(target: Sink | undefined): void {
  sink = target
}

/**
 * Production lines go to stdout through pino's own buffered asynchronous destination: a
 * line is appended to a buffer and written once 3 KiB have gathered (and at the latest a
 * tenth of a second later: a quiet server's lines show at once to whoever watches them, and a
 * busy one, writing by size long before, makes at most ten more writes a second), so a request
 * pays for a string append, not a write(2). What is still buffered is written synchronously when the process
 * exits, crashes or is stopped (flushLogs), so no line is lost.
 *
 * Every write is whole lines of at most PIPE_BUF bytes to a pipe: a cluster's processes share
 * one stdout (its workers inherit the primary's), and a write that size is never split or
 * interleaved with another process's (POSIX). A single line longer than that is written alone
 * and is the one case that can interleave on a pipe. To a regular file a write is whole whatever
 * its size (Linux holds the file's lock through it, and the shared offset moves past it), so the
 * pieces there are up to 64 KiB: the destination makes one write per turn of the event loop,
 * of pieces gathered up to that size (the next write starts when the last one's callback runs),
 * and at 4 KiB a busy server's lines fell behind, the rest waiting in the heap (docs/operations.md,
 * *Logging*; docs/benchmarks.md, *Measurements behind the code*).
 *
 * Lines are handed over as ASCII text (every other character as its JSON escape, `\u00e9`: the
 * same JSON values), so a piece's characters are its bytes and the destination counts them as
 * such. Text, not bytes: a Buffer per turn would be memory outside the heap, which V8 collects
 * late (it grew a busy server's resident size within a minute; docs/benchmarks.md, *Measurements behind the code*).
 */
let stdout: ReturnType<typeof pino.destination> | undefined
const FLUSH_EVERY_MS = 100
/** Linux's atomic pipe write. */
const PIPE_BUF = 4096
/** A piece written to a regular file (see above). */
const FILE_PIECE = 65536
/** The largest piece for stdout: PIPE_BUF unless it is a regular file. */
let pieceBytes = PIPE_BUF

function stdoutDestination(): ReturnType<typeof pino.destination> {
  if (!stdout) {
    pieceBytes = stdoutIsFile() ? FILE_PIECE : PIPE_BUF
    // The destination's own timer flushes every period, whatever the last one found: a flush while
    // a write is in flight does nothing, so a flag cleared by it left a short last line buffered
    // until the next line or the exit (test/ops/logFlush.test.ts, a line behind a blocked write).
    stdout = pino.destination({ dest: 1, sync: false, minLength: 3072, maxWrite: pieceBytes, periodicFlush: FLUSH_EVERY_MS })
    // Node emits 'exit' also when an uncaught error ends the process.
    process.once('exit', flushLogs)
  }
  return stdout
}

const NON_ASCII = /[^\x00-\x7f]/g
const HAS_NON_ASCII = /[^\x00-\x7f]/

/**
 * Every character outside ASCII as its JSON escape: the same JSON, one byte a character. In a
 * line of JSON such a character can only stand inside a string, where the escape means it.
 */
export function asciiOnly(text: string): string {
  // An ASCII text (nearly every turn's lines) comes back as it is after one scan: a test stays
  // in V8's fast regexp path, where a global replace with a function always calls the runtime.
  if (!HAS_NON_ASCII.test(text)) return text
  return text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** Whether stdout is a regular file (not a pipe, a terminal or closed). */
function stdoutIsFile(): boolean {
  try {
    return fstatSync(1).isFile()
  } catch {
    return false
  }
}

/** Whole lines of ASCII text as pieces of at most `max` bytes (a longer line alone). */
export function linePieces(text: string, max = PIPE_BUF): string[] {
  const pieces: string[] = []
  let start = 0
  while (start < text.length) {
    let end = text.length
    if (end - start > max) {
      // The last newline that keeps the piece within `max`, else the end of this long line.
      const cut = text.lastIndexOf('\n', start + max - 1)
      end = cut >= start ? cut + 1 : text.indexOf('\n', start) + 1 || text.length
    }
    pieces.push(text.slice(start, end))
    start = end
  }
  return pieces
}

/** Writes every buffered line now, synchronously. Safe to call at any time, also twice. */
export function flushLogs(): void {
  try {
    stdout?.flushSync()
    // This turn's lines, after the older ones, written now (an async write could be cut off by the exit).
    const lines = pending
    pending = ''
    if (lines !== '') writeAllSync(lines)
  } catch {
    /* not open yet, or already closed: nothing buffered to lose */
  }
}

/** Writes all of `text` to stdout now, in whole-line pieces, waiting out a full pipe (EAGAIN) as sonic-boom does. */
function writeAllSync(text: string): void {
  for (const piece of linePieces(asciiOnly(text), pieceBytes)) {
    let bytes = Buffer.from(piece, 'latin1')
    while (bytes.length > 0) {
      try {
        bytes = bytes.subarray(writeSync(1, bytes))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
      }
    }
  }
}

/**
 * Lines of this turn of the event loop, handed to the destination together once the turn ends
 * (a busy server writes several lines per turn; the destination measures and copies each write).
 */
let pending = ''
let handOffScheduled = false

function handOff(): void {
  handOffScheduled = false
  if (pending === '') return
  const lines = pending
  pending = ''
  const destination = stdoutDestination()
  for (const piece of linePieces(asciiOnly(lines), pieceBytes)) destination.write(piece)
}

const destination = {
  write(line: string): void {
    if (sink) return sink.write(line)
    // Opened with the first line, so the exit and crash hooks that flush it are in place.
    if (!stdout) stdoutDestination()
    pending += line
    if (!handOffScheduled) {
      handOffScheduled = true
      setImmediate(handOff)
    }
  },
}

/** After `survivePastErrors()`: an uncaught error is logged and the process serves on. */
let surviving = false

/**
 * For a server process. Until it serves (`survivePastErrors()`), an uncaught error is logged as
 * one `process.crashed` line (fatal), then the process ends the way Node would (the stack on
 * stderr, exit code 1): a start that fails must not look like a running server. Once it
 * serves, no error ends it, whatever a request sent: an error one request raised is that
 * request's error. An uncaught exception is then logged fatal (`process.uncaught_exception`),
 * a rejection nobody handled at error (`process.unhandled_rejection`), a caller's 4xx left
 * unhandled (Payload's query validation leaves one behind: docs/operations.md) at warn; the
 * process carries on. Buffered lines are flushed by the exit hook above on any exit.
 */
export function logCrashes(): void {
  const crashed = (err: unknown) => {
    try {
      logger().fatal({ err }, 'process.crashed')
    } finally {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
      process.exit(1)
    }
  }
  const survived = (kind: 'uncaught_exception' | 'unhandled_rejection') => (err: unknown) => {
    if (!surviving) return crashed(err)
    const statusCode = clientErrorStatus(err)
    if (statusCode !== undefined) {
      const { name, message } = err as { name?: unknown; message?: unknown }
      logger().warn({ statusCode, errorName: String(name), error: String(message) }, `process.${kind}`)
    } else if (kind === 'uncaught_exception') logger().fatal({ err }, `process.${kind}`)
    else logger().error({ err }, `process.${kind}`)
  }
  process.on('uncaughtException', survived('uncaught_exception'))
  process.on('unhandledRejection', survived('unhandled_rejection'))
}

/** From now on an uncaught error is logged and the process serves on (see logCrashes). */
export function survivePastErrors(): void {
  surviving = true
}

let root: Logger | undefined

const ERROR_LEVEL = 50

/** A client error (HTTP 4xx) carried by an error object: Payload's APIError family, our ApiError. */
function clientErrorStatus(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const status = (value as { status?: unknown }).status
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined
}

/**
 * The caller's mistakes are never logged at error with a stack, whoever logs them (Payload
 * logs each error a request raised; its `loggingLevels` match class names, which a bundler
 * may rename): an error-level line whose `err` is a 4xx becomes one info line, message only.
 * A fatal line stays fatal whatever it carries.
 */
function downgradeClientErrors(this: Logger, args: unknown[], method: (...a: unknown[]) => void, level: number): void {
  const first = args[0]
  if (level === ERROR_LEVEL && typeof first === 'object' && first !== null) {
    const { err, ...rest } = first as { err?: unknown }
    const statusCode = clientErrorStatus(err ?? first)
    if (statusCode !== undefined) {
      const source = (err ?? first) as { name?: unknown; message?: unknown }
      const error = typeof source.message === 'string' ? source.message : undefined
      const name = typeof source.name === 'string' ? source.name : undefined
      this.info({ ...(err === undefined ? {} : rest), statusCode, errorName: name, error }, typeof args[1] === 'string' ? args[1] : 'request.client_error')
      return
    }
  }
  method.apply(this, args)
}

/** The line format every logger here shares: `ts` (ISO 8601 UTC), `level` by name, `msg`, `pid`. */
/** How deep an error's causes are written. */
const CAUSE_DEPTH = 3

/**
 * An error as a log line writes it: its name, message, code (and the server's code name and
 * labels), stack, and causes, each a plain value. pino's default serializer copied every own
 * property: a driver's error carries its whole topology (circular), and the line read
 * `"err":"[unable to serialize, circular reference is too complex to analyze]"`.
 */
export function readableError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return typeof err === 'object' && err !== null ? String(err) : err
  const e = err as Error & { code?: unknown; codeName?: unknown; errorLabels?: unknown }
  const out: Record<string, unknown> = { type: e.name, message: e.message }
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code
  if (typeof e.codeName === 'string') out.codeName = e.codeName
  if (Array.isArray(e.errorLabels)) out.errorLabels = e.errorLabels.filter((l) => typeof l === 'string')
  if (e.stack) out.stack = e.stack
  if (e.cause !== undefined && depth < CAUSE_DEPTH) out.cause = readableError(e.cause, depth + 1)
  return out
}

function lineOptions() {
  return {
    level: getConfig().logLevel,
    serializers: { err: readableError },
    // The process id tells cluster workers' lines apart.
    base: { pid: process.pid },
    messageKey: 'msg',
    timestamp: () => `,"ts":"${isoNow()}"`,
    formatters: { level: (label: string) => ({ level: label }) },
  }
}

/** The process logger: free-form lines, every one redacted. */
export function logger(): Logger {
  if (!root) {
    root = pino(
      {
        ...lineOptions(),
        redact: { paths: redactPaths, censor: '[redacted]' },
        hooks: { logMethod: downgradeClientErrors },
      },
      destination,
    )
  }
  return root
}

/** The one line every request writes; these fields and nothing else. */
export type RequestCompleted = {
  requestId: string
  route: string
  userId: string | undefined
  statusCode: number
  durationMs: number
}

/** The ISO 8601 time, its text reused within one millisecond (a busy server writes many lines per millisecond). */
let isoAt = 0
let isoText = ''
function isoNow(): string {
  const now = Date.now()
  if (now !== isoAt) {
    isoAt = now
    isoText = new Date(now).toISOString()
  }
  return isoText
}

const LEVEL_RANK = { debug: 20, info: 30, warn: 40, error: 50 } as const
let accessLevel: number | undefined

/**
 * Writes `request.completed` without redaction, which costs more than the rest of the line
 * (bench/logging.ts), and without pino's generic object walk: the line is built here, in the
 * shared line format (level, ts, pid, the fields, msg), from the five named fields of a fixed
 * shape (an id checked against the request-id pattern or generated, a route name, a user id,
 * two numbers), so no caller can add a field that carries a secret; a request's headers, body
 * and errors never reach it. Every other line keeps redaction.
 */
export function logRequestCompleted(level: 'error' | 'warn' | 'info', fields: RequestCompleted): void {
  accessLevel ??= pino.levels.values[getConfig().logLevel] ?? LEVEL_RANK.info
  if (LEVEL_RANK[level] < accessLevel) return
  const user = fields.userId === undefined ? '' : `,"userId":${jsonString(fields.userId)}`
  destination.write(
    `{"level":"${level}","ts":"${isoNow()}","pid":${process.pid},"requestId":${jsonString(fields.requestId)},"route":${jsonString(fields.route)}${user},"statusCode":${fields.statusCode},"durationMs":${fields.durationMs},"msg":"request.completed"}\n`,
  )
}

/** Text that reads the same inside JSON quotes: nothing to escape. Request ids, route names and user ids are. */
const PLAIN_JSON_TEXT = /^[A-Za-z0-9 ._:/*-]*$/

/**
 * A string as JSON: quoted as it is when nothing needs escaping, else JSON.stringify (whose two
 * calls a line were a measurable share of a 304's time; docs/benchmarks.md, *Measurements behind the code*).
 */
function jsonString(text: string): string {
  return PLAIN_JSON_TEXT.test(text) ? `"${text}"` : JSON.stringify(text)
}

export type RequestLogger = Pick<Logger, 'error' | 'warn' | 'info' | 'debug'>

/**
 * A logger that adds fixed fields (requestId, route) to every line. Unlike pino's child(),
 * it costs nothing to create: child() re-runs redaction setup, which showed up per request.
 */
export function withFields(fields: Record<string, unknown>): RequestLogger {
  const log = logger()
  const level =
    (name: 'error' | 'warn' | 'info' | 'debug') =>
    (objOrMsg: unknown, msg?: string, ...args: unknown[]) => {
      if (!log.isLevelEnabled(name)) return
      if (typeof objOrMsg === 'object' && objOrMsg !== null && !(objOrMsg instanceof Error)) {
        log[name]({ ...fields, ...objOrMsg }, msg, ...args)
      } else if (objOrMsg instanceof Error) {
        log[name]({ ...fields, err: objOrMsg }, msg, ...args)
      } else {
        log[name](fields, objOrMsg as string, ...args)
      }
    }
  return { error: level('error'), warn: level('warn'), info: level('info'), debug: level('debug') } as RequestLogger
}
