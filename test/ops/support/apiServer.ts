/**
 * server.ts without Next, for the tests in test/ops: the same runtime (src/server/run:
 * cluster, graceful shutdown, metrics, logging) and the same /api/v1 path, with a 404
 * stand-in for the admin panel and pages (a Next build is not part of these tests).
 */
import { configOrExit } from '../../../src/config'

const config = configOrExit()

const { runServer } = await import('../../../src/server/run')

await runServer(config, async () => {
  const { getPayload } = await import('payload')
  const { serveApi } = await import('../../../src/edge/nodeAdapter')
  const { dispatchApi } = await import('../../../endpoints')
  const payloadConfig = (await import('../../../payload.config')).default
  const payload = await getPayload({ config: payloadConfig, cron: true })
  const origin = `http://127.0.0.1:${config.port}`
  return {
    payload,
    api: (req, res, security) => serveApi(dispatchApi, req, res, payload, origin, security),
    other: (_req, res) => void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'),
  }
})
