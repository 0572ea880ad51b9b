/**
 * The server server.ts runs (src/http/nodeServer: /api/v1 to the dispatcher, /openapi.json
 * and /docs to the reference), on a free port over real HTTP, with a stand-in for Next
 * behind everything else. For tests that drive the app as a remote client does.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

import { dispatchApi } from '../../endpoints'
import { answerReference, isReferencePath } from '../../endpoints/reference'
import { NodeHeaderReader } from '../../src/http/headers'
import { serveApi, writeResult } from '../../src/http/nodeAdapter'
import { createAppServer } from '../../src/http/nodeServer'
import { testApp } from './app'

export type RunningServer = { origin: string; close(): Promise<void> }

export async function startHttpServer(): Promise<RunningServer> {
  const app = await testApp()
  const server: Server = createAppServer({
    api: (req, res) => serveApi(dispatchApi, req, res, app.payload, 'http://127.0.0.1'),
    reference: {
      matches: isReferencePath,
      handle: (req, res) =>
        void answerReference(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!, new NodeHeaderReader(req.headers)).then((r) => writeResult(res, r!)),
    },
    other: (_req, res) => res.writeHead(404).end(),
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
