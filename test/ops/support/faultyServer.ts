/**
 * test/ops/support/apiServer.ts with pages that fail in every way a handler can, for
 * test/ops/processErrors.test.ts: `/fault/<how>` throws or rejects (or leaves an error behind
 * in a timer, an emitter or an orphaned promise; `/fault/payload` runs the review's query in
 * Payload, which leaves a rejection behind); `/ok` answers 200 with the process id.
 */
import { EventEmitter } from 'node:events'

import { configOrExit } from '../../../src/platform/config'

const config = configOrExit()

const { runServer } = await import('../../../server/run')

/** Every way a request's code can fail; each leaves the process serving. */
const FAULTS: Record<string, () => void | Promise<void>> = {
  sync: () => {
    throw new Error('thrown while answering')
  },
  async: async () => {
    await new Promise((r) => setTimeout(r, 5))
    throw new Error('rejected while answering')
  },
  'not-an-error': () => {
    throw 'a string, not an Error'
  },
  timer: () => {
    setTimeout(() => {
      throw new Error('thrown in a timer after the answer')
    }, 5)
  },
  orphan: () => {
    void Promise.reject(new Error('a promise nobody awaits'))
  },
  'orphan-client-error': () => {
    // What Payload's query validation leaves behind (a QueryError carries status 400).
    void Promise.reject(Object.assign(new Error('The following paths cannot be queried: name'), { name: 'QueryError', status: 400 }))
  },
  emitter: () => {
    new EventEmitter().emit('error', new Error('an emitter error nobody listens to'))
  },
}

const { apiApp } = await import('./apiApp')

await runServer(config, () =>
  apiApp(config.port, (payload) => (req, res) => {
    if (req.url === '/fault/payload') {
      // The review's query, as a tag.manage holder: Payload answers 400 and leaves a rejection behind.
      const user = { id: '0123456789abcdef01234567', collection: 'users', roles: [{ permissions: ['tag.manage'] }] }
      return payload
        .find({ collection: 'tag-renames', where: { 'actor.roles.name': { equals: 'admin' } }, overrideAccess: false, user: user as never })
        .then(
          () => void res.writeHead(200).end('found'),
          (err: { status?: number }) => void res.writeHead(err.status ?? 500).end('refused'),
        )
    }
    const how = /^\/fault\/([a-z-]+)$/.exec(req.url ?? '')?.[1]
    if (how && FAULTS[how]) {
      const failed = FAULTS[how]()
      // The faults that leave an error behind answer first, as a handler that went on would.
      if (how === 'timer' || how.startsWith('orphan')) res.writeHead(200).end('answered')
      return failed
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(String(process.pid))
  }),
)
