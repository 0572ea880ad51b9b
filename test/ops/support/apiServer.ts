/**
 * server.ts without Next, for the tests in test/ops: the same runtime (server/run:
 * cluster, graceful shutdown, metrics, logging) and the same /api/v1 path, with a 404
 * stand-in for the admin panel and pages (a Next build is not part of these tests).
 */
import { configOrExit } from '../../../src/platform/config'

const config = configOrExit()

const { runServer } = await import('../../../server/run')

const { apiApp } = await import('./apiApp')

await runServer(config, () => apiApp(config.port, () => (_req, res) => void res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')))
