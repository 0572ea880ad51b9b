/**
 * The server server.ts runs (src/edge/nodeServer: /api/v1 to the dispatcher, /openapi.json
 * and /docs to the reference, Payload's REST as Next's route serves it), on a free port over
 * real HTTP; pages (Next) are absent. For tests that drive the app as a remote client does.
 */
import type { IncomingMessage, Server } from 'node:http'

import { handleEndpoints } from 'payload'
import type { AddressInfo } from 'node:net'

import { dispatchApi } from '../../endpoints'
import { answerReference, isReferencePath } from '../../endpoints/reference'
import { NodeHeaderReader } from '../../src/edge/headers'
import { serveApi, writeResult } from '../../src/edge/nodeAdapter'
import { createAppServer } from '../../src/edge/nodeServer'
import { guardPayloadRest } from '../../src/edge/payloadRestGuard'
import { testApp } from './app'

export type RunningServer = { origin: string; close(): Promise<void> }

/** A Node request as the Fetch Request Next hands to its route handlers. */
async function toFetchRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value)
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && chunks.length > 0
  return new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined })
}

export async function startHttpServer(): Promise<RunningServer> {
  const app = await testApp()
  const payloadRest = guardPayloadRest(app.config, (request: Request) => handleEndpoints({ config: app.config, request }))
  const server: Server = createAppServer({
    api: (req, res, security) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1', security),
    reference: {
      matches: isReferencePath,
      handle: (req, res) =>
        void answerReference(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!, new NodeHeaderReader(req.headers)).then((r) => writeResult(res, r!)),
    },
    // Payload's REST (/api/<collection>..., the console endpoints) as Next's api/[...slug] route
    // serves it, guard included; pages are Next's and absent here.
    other: (req, res) => {
      if (!(req.url ?? '').startsWith('/api/')) return void res.writeHead(404).end()
      void toFetchRequest(req)
        .then((request) => payloadRest(request, undefined))
        .then(async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer())
          res.writeHead(answer.status, Object.fromEntries(answer.headers))
          res.end(body)
        })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
