/**
 * The contract the MongoDB adapter's replaced commit and rollback rest on
 * (src/db/mongo/payloadTransactions.ts; docs/architecture.md, "The wrappers"): what
 * @payloadcms/db-mongodb's own functions do today that the replacement mends. Read straight from
 * the installed package's files (they are not exported), driven with a session that fails as a
 * replica set's can. A test here fails when the library's next version changes that shape: an
 * upgrade re-reads the replacement, and drops it once the library retries and ends its sessions.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../..')
const versionOf = (folder: string) => (JSON.parse(readFileSync(path.join(root, 'node_modules', folder, 'package.json'), 'utf8')) as { version: string }).version
const stock = async (name: 'commitTransaction' | 'rollbackTransaction') =>
  ((await import(pathToFileURL(path.join(root, 'node_modules/@payloadcms/db-mongodb/dist/transactions', `${name}.js`)).href)) as Record<string, (this: unknown, id: string) => Promise<void>>)[name]!

/** A session in a transaction whose commit answers UnknownTransactionCommitResult once (a primary stepping down). */
function flakySession() {
  const session = {
    commits: 0,
    ended: false,
    inTransaction: () => true,
    commitTransaction: async () => {
      session.commits += 1
      if (session.commits === 1) throw Object.assign(new Error('commit result unknown'), { errorLabels: ['UnknownTransactionCommitResult'], hasErrorLabel: (l: string) => l === 'UnknownTransactionCommitResult' })
    },
    abortTransaction: async () => undefined,
    endSession: async () => void (session.ended = true),
  }
  return session
}

describe("MongoDB: the contract of Payload's transactions the replacement mends", () => {
  it('runs on the versions the replacement was read against', () => {
    expect({ '@payloadcms/db-mongodb': versionOf('@payloadcms/db-mongodb'), mongodb: versionOf('mongodb') }).toEqual({ '@payloadcms/db-mongodb': '3.90.2', mongodb: '6.20.0' })
  })

  it("the stock commit sends the commit once and gives up on UnknownTransactionCommitResult, leaving the session open: the replacement re-sends the commit (./commit) and always ends the session", async () => {
    const commit = await stock('commitTransaction')
    const session = flakySession()
    const adapter = { sessions: { t1: session } as Record<string, unknown> }
    await expect(commit.call(adapter, 't1')).rejects.toThrow('commit result unknown')
    // Fixed upstream (a retried commit, an ended session), these fail: drop the replacement's own copy.
    expect(session.commits).toBe(1)
    expect(session.ended).toBe(false)
    expect(adapter.sessions.t1).toBeUndefined()
  })

  it('the stock rollback aborts and ends the session (the replacement does the same, and forgets what the transaction noted)', async () => {
    const rollback = await stock('rollbackTransaction')
    const session = flakySession()
    const adapter = { sessions: { t1: session } as Record<string, unknown>, payload: { logger: { warn: () => undefined } } }
    await rollback.call(adapter, 't1')
    expect(session.ended).toBe(true)
    expect(adapter.sessions.t1).toBeUndefined()
  })
})
