/**
 * Starts test/ops/support/apiServer.ts (server.ts's runtime without Next) as a real process
 * on a free port, on this test file's database, and collects its log lines.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, connect, type Socket } from 'node:net'
import path from 'node:path'

import { childEnv, databaseEnv } from '../../support/childEnv'
import { TSX } from '../../support/tsxChild'
const root = path.resolve(import.meta.dirname, '../../..')
const entry = path.join(import.meta.dirname, 'apiServer.ts')

export type ServerProcess = {
  child: ChildProcess
  port: number
  /** Parsed log lines so far (stdout). */
  lines: Record<string, any>[]
  stderr: () => string
  waitForLine(match: (line: Record<string, any>) => boolean, timeoutMs?: number): Promise<Record<string, any>>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** Starts a server and resolves once it listens (rejects if it exits first). */
export async function startServer(env: Record<string, string>, script = entry): Promise<ServerProcess> {
  const server = await launchServer(env, script)
  await server.listening
  return server
}

/** Starts a server and resolves at once: its lines can be watched while it starts; `listening` settles as startServer does. */
export async function launchServer(env: Record<string, string>, script = entry): Promise<ServerProcess & { listening: Promise<void> }> {
  const port = await freePort()
  const child = spawn(process.execPath, [...TSX, script], {
    cwd: root,
    env: {
      ...childEnv(),
      NODE_ENV: 'production',
      PORT: String(port),
      ...databaseEnv(),
      MEDIA_DIR: process.env.MEDIA_DIR!,
      PAYLOAD_SECRET: 'ops-test-payload-secret-0123456789abcdef',
      JWT_ACCESS_SECRET: 'ops-test-access-secret-0123456789abcdef0123',
      JWT_REFRESH_SECRET: 'ops-test-refresh-secret-0123456789abcdef012',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
      BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
      LOG_LEVEL: 'info',
      WEB_CONCURRENCY: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: Record<string, any>[] = []
  const waiters: { match: (l: Record<string, any>) => boolean; resolve: (l: Record<string, any>) => void }[] = []
  let partial = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (chunk: string) => {
    const text = partial + chunk
    const parts = text.split('\n')
    partial = parts.pop()!
    for (const raw of parts) {
      if (!raw) continue
      let line: Record<string, any>
      try {
        line = JSON.parse(raw)
      } catch {
        line = { unparsed: raw }
      }
      lines.push(line)
      for (const w of [...waiters]) {
        if (w.match(line)) {
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve(line)
        }
      }
    }
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (c: string) => (stderr += c))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const waitForLine: ServerProcess['waitForLine'] = (match, timeoutMs = 90_000) => {
    const found = lines.find(match)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching log line; stderr: ${stderr.slice(-2000)}`)), timeoutMs)
      waiters.push({ match, resolve: (l) => (clearTimeout(timer), resolve(l)) })
    })
  }
  const listening = Promise.race([
    waitForLine((l) => l.msg === 'server.listening').then(() => undefined),
    exited.then(({ code }) => {
      throw new Error(`server exited (${code}) before listening: ${stderr.slice(-2000)}`)
    }),
  ])
  // Awaited by the caller; a rejection nobody awaits yet must not count as unhandled.
  listening.catch(() => undefined)
  return { child, port, lines, stderr: () => stderr, waitForLine, exited, listening }
}

/** A raw connection: write parts of a request when the test says so, read the whole answer. */
export function rawConnection(port: number): Promise<{ socket: Socket; answer: Promise<{ status: number; headers: string; body: any }> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('error', reject)
    socket.once('connect', () => {
      let data = ''
      socket.setEncoding('utf8')
      socket.on('data', (c: string) => (data += c))
      const answer = new Promise<{ status: number; headers: string; body: any }>((done, fail) => {
        socket.once('close', () => {
          const [head, ...rest] = data.split('\r\n\r\n')
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1])
          if (!status) return fail(new Error(`no answer: ${JSON.stringify(data)}`))
          const text = rest.join('\r\n\r\n')
          let body: unknown
          try {
            body = JSON.parse(text)
          } catch {
            body = text
          }
          done({ status, headers: head!, body })
        })
      })
      resolve({ socket, answer })
    })
  })
}

/** Resolves with the connection error code (ECONNREFUSED when nothing listens), or 'connected'. */
export function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
  })
}
