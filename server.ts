/**
 * The production server: Node's http server in front of Next (admin panel and /api/v1).
 * It exists for what Next's own `next start` cannot do: refuse to start on a bad
 * configuration with one readable message, append the socket address to X-Forwarded-For
 * (the client address is read from its right, through the proxies TRUST_PROXY trusts, so a
 * forged header dodges no rate limit), time out slow requests and answer Node-level errors
 * with the envelope (src/http/nodeServer), and start Payload (bootstrap, seed) before the
 * first user request.
 */
import next from 'next'

import { ConfigError, parseConfig } from './src/config'

;(process.env as Record<string, string>).NODE_ENV ??= 'production'

let config
try {
  config = parseConfig(process.env)
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
  throw err
}

const { logger } = await import('./src/logging')
const log = logger()
const { getPayload } = await import('payload')
const { serveApi } = await import('./src/http/nodeAdapter')
const { createAppServer } = await import('./src/http/nodeServer')
const { dispatchApi } = await import('./endpoints')
const payloadConfig = (await import('./payload.config')).default
const app = next({ dev: false, dir: import.meta.dirname })
const handle = app.getRequestHandler()
await app.prepare()
// Start Payload (schema sync, bootstrap, seed, catalog priming) before accepting traffic.
// The Next bundle's getPayload finds this same instance in Payload's process-wide cache.
const payload = await getPayload({ config: payloadConfig, cron: true })

const origin = `http://127.0.0.1:${config.port}`

const server = createAppServer({
  // The API goes straight to its dispatcher (the one the Next route calls), skipping
  // Next's routing and Fetch object building: same code, a fraction of the per-request work.
  api: (req, res) => serveApi(dispatchApi, req, res, payload, origin),
  other: (req, res) => void handle(req, res),
})

server.listen(config.port, async () => {
  log.info({ port: config.port }, 'server.listening')
  // Start Payload now (bootstrap, seed, catalog priming) rather than on the first user request.
  try {
    const res = await fetch(`http://127.0.0.1:${config.port}/api/v1/ready`)
    log.info({ statusCode: res.status }, 'server.warmed')
  } catch (err) {
    log.error({ err }, 'server.warm_failed')
  }
})

const shutdown = (signal: string) => {
  log.info({ signal }, 'server.stopping')
  server.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 5_000).unref()
}
process.on('SIGTERM', () => shutdown('SIGTERM'))
process.on('SIGINT', () => shutdown('SIGINT'))
