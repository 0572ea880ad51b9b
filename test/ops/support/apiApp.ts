/**
 * The app the test/ops servers run: Payload started, /api/v1 through the API's own handler as
 * server.ts serves it, and `other` for every other path (no Next build in these tests).
 */
import type { App, Handler } from '../../../server/run'

export async function apiApp(port: number, other: (payload: App['payload']) => Handler): Promise<App> {
  const { getPayload } = await import('payload')
  const { serveApi } = await import('../../../src/edge/nodeAdapter')
  const { dispatchApi } = await import('../../../endpoints')
  const payloadConfig = (await import('../../../payload.config')).default
  const payload = await getPayload({ config: payloadConfig, cron: true })
  const origin = `http://127.0.0.1:${port}`
  return {
    payload,
    api: (req, res, security) => serveApi(dispatchApi, req, res, payload, origin, security),
    other: other(payload),
  }
}
