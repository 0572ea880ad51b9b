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

const destination = { write: (line: string) => void (sink ?? process.stdout).write(line) }

let root: Logger | undefined

/** The process logger: JSON lines with `ts` (ISO 8601 UTC), `level` by name and `msg`. */
export function logger(): Logger {
  if (!root) {
    root = pino(
      {
        level: getConfig().logLevel,
        base: null,
        messageKey: 'msg',
        timestamp: () => `,"ts":"${new Date().toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: redactPaths, censor: '[redacted]' },
      },
      destination,
    )
  }
  return root
}

/** Test hook: rebuild the logger after the configuration changed. */
export function resetLogger(): void {
  root = undefined
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
