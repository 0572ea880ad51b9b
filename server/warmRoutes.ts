/**
 * Next loads a route's compiled code on the route's first request. In a fresh production process
 * the first request to Payload's REST held the event loop ~0.5 s, and the first admin page ~1.4 s
 * (docs/benchmarks.md, *The mixed row in every shape*): inside a user's request, with every other
 * request of the process waiting. So a serving process asks each such route once itself before it
 * listens, on a listener of its own (127.0.0.1, an ephemeral port, not shared: in a cluster the
 * shared port would hand the request to any worker). It costs the process the routes' code in
 * memory (~12 MB and ~25 MB), which the first use would have cost anyway.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

import { logger } from '../src/platform/logging'

/** One path per route whose code Next loads on its first request (an anonymous ask: no session, no write). */
export const WARM_PATHS = ['/api/users/me', '/admin/login'] as const

/** Each of `paths` asked once through `handler`; a failure is logged, never the start's. */
export async function warmRoutes(paths: readonly string[], handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  const server = createServer((req, res) => void handler(req, res))
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, resolve)
    })
    const { port } = server.address() as AddressInfo
    for (const path of paths) {
      const started = performance.now()
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(30_000) })
      await res.arrayBuffer()
      logger().info({ path, status: res.status, ms: Math.round(performance.now() - started) }, 'server.route_warmed')
    }
  } catch (err) {
    logger().warn({ err }, 'server.warm_failed')
  } finally {
    server.closeAllConnections()
    server.close()
  }
}
