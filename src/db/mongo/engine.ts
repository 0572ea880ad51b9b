/** MongoDB (production) behind EngineOps. */
import { mongooseAdapter } from '@payloadcms/db-mongodb'

import type { EngineOps } from '../engineOps'
import { claimRefreshTokenMongo, hitRateLimitMongo } from './authPrimitives'
import { mongoContentStore } from './contentStore'
import { ensurePayloadIndexes } from './indexes'
import { claimFollowUpMongo, completeFollowUpMongo, failFollowUpMongo, followUpDepthMongo, listFollowUpsMongo } from './followUpOutbox'
import { transitionStatusMongo } from './moderation'
import { recordedUpdateMongo } from './moderationEvents'
import { collectionName, nativeClient, nativeDb } from './native'
import { dropDuplicateNotificationsMongo } from './notificationDuplicates'
import { withTransientRetry } from './retry'
import { renameTagMongo } from './tagRename'
import { reorderTaxonomyMongo } from './taxonomyReorder'
import { requireReplicaSet, requireReplicaSetInUri } from './transaction'
import { bumpVersionForRequest, readVersion } from './versions'

export const mongoEngine: EngineOps = {
  name: 'mongodb',
  adapter: (db) => mongooseAdapter({ url: db.uri, ...(db.name ? { connectOptions: { dbName: db.name } } : {}) }),
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
    await requireReplicaSet(nativeDb(payload))
    // Before Payload's unique (content, kind) index is built on a database that has duplicates.
    await dropDuplicateNotificationsMongo(nativeDb(payload), collectionName(payload, 'notifications'))
    await ensurePayloadIndexes(payload)
  },
  contentStore: mongoContentStore,
  claimRefreshToken: claimRefreshTokenMongo,
  hitRateLimit: hitRateLimitMongo,
  renameTag: renameTagMongo,
  reorderTaxonomy: reorderTaxonomyMongo,
  transitionStatus: transitionStatusMongo,
  recordedUpdate: recordedUpdateMongo,
  claimFollowUp: claimFollowUpMongo,
  completeFollowUp: completeFollowUpMongo,
  failFollowUp: failFollowUpMongo,
  listFollowUps: listFollowUpsMongo,
  followUpDepth: followUpDepthMongo,
  // The native driver calls go through Payload's own client, which payload.destroy() closes.
  closeOwnConnections: () => undefined,
  versionOf: async (payload, domain) => readVersion(nativeDb(payload), domain),
  onDomainWrite: bumpVersionForRequest,
  withTransientRetry,
}
