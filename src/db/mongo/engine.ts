/** MongoDB (production) behind EngineOps. */
import { mongooseAdapter } from '@payloadcms/db-mongodb'
import path from 'node:path'

import type { EngineOps } from '../engineOps'
import { claimRefreshTokenMongo, hitRateLimitMongo } from './authPrimitives'
import { mongoContentStore } from './contentStore'
import { ensurePayloadIndexes } from './indexes'
import { migrateMongo } from './migrations'
import { claimFollowUpMongo, completeFollowUpMongo, failFollowUpMongo, followUpDepthMongo, listFollowUpsMongo } from './followUpOutbox'
import { transitionStatusMongo } from './moderation'
import { recordedUpdateMongo } from './moderationEvents'
import { nativeClient, nativeDb } from './native'
import { withTransientRetry } from './retry'
import { renameTagMongo } from './tagRename'
import { reorderTaxonomyMongo } from './taxonomyReorder'
import { requireReplicaSet, requireReplicaSetInUri } from './transaction'
import { bumpVersionForRequest, readVersion } from './versions'

export const mongoEngine: EngineOps = {
  name: 'mongodb',
  adapter: (db) =>
    mongooseAdapter({
      url: db.uri,
      ...(db.name ? { connectOptions: { dbName: db.name } } : {}),
      // Where `payload migrate:create` writes (from the project root); the server imports the list statically.
      migrationDir: path.resolve(process.cwd(), 'src/db/migrations/mongodb'),
    }),
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
    await requireReplicaSet(nativeDb(payload))
    await migrateMongo(payload, async () => {
      // After the migrations (one deletes duplicates Payload's unique indexes would refuse).
      await ensurePayloadIndexes(payload)
      await afterMigrate?.()
    })
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
