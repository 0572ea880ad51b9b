/** Running MongoDB (production): Payload's adapter, the start-up checks and indexes, health. */
import { mongooseAdapter } from '@payloadcms/db-mongodb'

import type { OperationsPort } from '../ports/operations'
import { ensurePayloadIndexes } from './indexes'
import { collectionName, nativeClient, nativeDb } from './native'
import { dropDuplicateNotificationsMongo } from './notificationDuplicates'
import { withPayloadTransactions } from './payloadTransactions'
import { requirePayloadTransactions, requireReplicaSet, requireReplicaSetInUri } from './transaction'

export const mongoOperations: OperationsPort = {
  name: 'mongodb',
  adapter: (db) => withPayloadTransactions(mongooseAdapter({ url: db.uri, ...(db.name ? { connectOptions: { dbName: db.name } } : {}) })),
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
  async prepare(payload) {
    requireReplicaSetInUri(nativeClient(payload))
    requirePayloadTransactions(payload)
    await requireReplicaSet(nativeDb(payload))
    // Before Payload's unique (content, kind) index is built on a database that has duplicates.
    await dropDuplicateNotificationsMongo(nativeDb(payload), collectionName(payload, 'notifications'))
    await ensurePayloadIndexes(payload)
  },
  // The native driver calls go through Payload's own client, which payload.destroy() closes.
  closeOwnConnections: () => undefined,
}
