/**
 * The production server: Node's http server in front of Next (admin panel and /api/v1).
 * It exists for what Next's own `next start` cannot do: refuse to start on a bad
 * configuration with one readable message, append the socket address to X-Forwarded-For
 * (the client address is read from its right, through the proxies TRUST_PROXY trusts, so a
 * forged header dodges no rate limit), time out slow requests and answer Node-level errors
 * with the envelope (src/edge/nodeServer), start Payload (bootstrap, seed) before the
 * first user request, run WEB_CONCURRENCY worker processes, stop gracefully on SIGTERM/SIGINT
 * and serve /metrics (server/).
 */
import { configOrExit } from './src/platform/config'
import { resolvePackageImportsQuickly } from './src/platform/packageImports'

// Before Next and Payload load: their packages' relative imports without a package.json parse each.
resolvePackageImportsQuickly()

;(process.env as Record<string, string>).NODE_ENV ??= 'production'

const config = configOrExit()

const { runServer } = await import('./server/run')
const { WARM_PATHS } = await import('./server/warmRoutes')

// The primary of a cluster never calls this: only serving processes load Next and Payload.
await runServer(config, async () => {
  const { default: next } = await import('next')
  const { getPayload } = await import('payload')
  const { serveApi, writeResult } = await import('./src/edge/nodeAdapter')
  const { NodeHeaderReader } = await import('./src/edge/headers')
  const { logger } = await import('./src/platform/logging')
  const { dispatchApi } = await import('./endpoints')
  const { answerReference, isReferencePath } = await import('./endpoints/reference')
  const payloadConfig = (await import('./payload.config')).default
  // The project root is the working directory (npm start, the image's WORKDIR): this file also
  // runs compiled from dist/, where its own directory is not the root.
  const app = next({ dev: false, dir: process.cwd() })
  const handle = app.getRequestHandler()
  await app.prepare()
  // Start Payload (pending migrations, bootstrap, seed, catalog priming) before accepting traffic.
  // The Next bundle's getPayload finds this same instance in Payload's process-wide cache.
  const payload = await getPayload({ config: payloadConfig, cron: true })
  const origin = `http://127.0.0.1:${config.port}`
  return {
    payload,
    // The API goes straight to its dispatcher (the one the Next route calls), skipping
    // Next's routing and Fetch object building: same code, a fraction of the per-request work.
    api: (req, res, security) => serveApi(dispatchApi, req, res, payload, origin, security),
    // /openapi.json and /docs: the contract and its reference page, outside the envelope.
    reference: {
      matches: isReferencePath,
      handle: (req, res) =>
        void answerReference(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!, new NodeHeaderReader(req.headers)).then(
          (result) => writeResult(res, result!),
          (err) => {
            logger().error({ err }, 'server.reference_failed')
            if (!res.headersSent) res.writeHead(500)
            res.end()
          },
        ),
    },
    other: (req, res) => handle(req, res),
    // Next loads these routes' code on their first request: asked once before listening (server/warmRoutes).
    warm: WARM_PATHS,
  }
})
