/** Running MongoDB (production): Payload's adapter, the start-up checks and indexes, health. */
import { mongooseAdapter } from '@payloadcms/db-mongodb'
import path from 'node:path'

import type { OperationsPort } from '../ports'
import { ensurePayloadIndexes } from './indexes'
import { migrateMongo } from './migrate'
import { nativeClient, nativeDb } from './native'
import { withPayloadTransactions } from './payloadTransactions'
import { requirePayloadTransactions, requireReplicaSet, requireReplicaSetInUri, TRANSACTION_OPTIONS } from './transaction'
import { READ_LIMIT_MS } from './readLimit'
import { stopTagRenameSweep } from './tagRename'

/**
 * The driver's pool and waits, where the URI does not set them (a URI option wins: operators tune
 * there). The driver's defaults are 100 connections per process, an unbounded wait for one, and
 * 30 s to find a primary: through an election every request would hang for up to 30 s holding a
 * socket, and a burst would open 100 connections per worker. Here: 20 connections a process (a
 * request needs one only while it reads or writes), 2 s to get one, 5 s to find a server; past
 * those the request answers 503 `service.unavailable` with Retry-After (src/platform/errors's
 * fromDatabaseUnavailable), never a 500 or a hang. docs/mongodb.md *Pool and timeouts*.
 */
export const POOL_DEFAULTS = { maxPoolSize: 20, waitQueueTimeoutMS: 2_000, serverSelectionTimeoutMS: 5_000 } as const

export function poolOptions(uri: string): Partial<Record<keyof typeof POOL_DEFAULTS, number>> {
  // By hand: a URI of several hosts is no WHATWG URL. Option names are case-insensitive.
  const query = uri.split('?')[1]?.split('#')[0] ?? ''
  const inUri = new Set(query.split('&').map((pair) => decodeURIComponent(pair.split('=')[0]!).toLowerCase()))
  return Object.fromEntries(Object.entries(POOL_DEFAULTS).filter(([key]) => !inUri.has(key.toLowerCase())))
}

export const mongoOperations: OperationsPort = {
  name: 'mongodb',
  adapter: (db) =>
    withPayloadTransactions(
      mongooseAdapter({
        url: db.uri,
        // The adapter turns mongoose's autoIndex on: every process would build Payload's ~70
        // indexes at connect, outside the migration lock and before the migrations that clean
        // up what a unique index refuses. They are built by ensurePayloadIndexes, under the lock.
        connectOptions: { autoIndex: false, ...poolOptions(db.uri), ...(db.name ? { dbName: db.name } : {}) },
        // Where `payload migrate:create` writes (from the project root); the server imports the list statically.
        migrationDir: path.resolve(process.cwd(), 'src/db/mongo/migrations'),
        // Payload's saves read one snapshot and commit with a majority, as the service's own do.
        transactionOptions: TRANSACTION_OPTIONS,
        // Payload's own reads (the admin panel's lists, the Local API) carry the content store's
        // time limit: mongoose adds a connection's maxTimeMS to every query and aggregation.
        afterOpenConnection: async (adapter) => {
          adapter.connection.set('maxTimeMS', READ_LIMIT_MS)
        },
      }),
    ),
  // ObjectIds already are 24-hex.
  withIds: (collections) => collections,
  async ping(payload) {
    try {
      await nativeDb(payload).command({ ping: 1 })
      return true
    } catch {
      return false
    }
  },
  async prepare(payload, afterMigrate) {
    requireReplicaSetInUri(nativeClient(payload))
    requirePayloadTransactions(payload)
    await requireReplicaSet(nativeDb(payload))
    await migrateMongo(payload, async () => {
      // After the migrations (one deletes duplicates Payload's unique indexes would refuse).
      await ensurePayloadIndexes(payload)
      await afterMigrate?.()
    })
  },
  // The native driver calls go through Payload's own client, which payload.destroy() closes.
  // The rename sweep's timer (./tagRename) ends with the connection it writes on.
  closeOwnConnections: () => stopTagRenameSweep(),
}
