/** MongoDB (production): each port of src/db/ports/index.ts from its own file. */
import type { EngineOps } from '../ports'
import { startMongoChangeFeed } from './changeFeed'
import { mongoContentStore } from './contentStore'
import { followUpDepthMongo, listFollowUpsMongo } from './followUpOutbox'
import { mongoOperations } from './operations'
import { noteDomainWriteMongo } from './payloadTransactions'
import { applyPlanMongo } from './planApplier'
import { renameTagMongo } from './tagRename'
import { noteSiblingWriteMongo } from './siblingGuards'
import { hitRateLimitMongo } from './rateLimits'
import { isTransient } from './retry'
import { uniqueViolationFieldMongo } from './uniqueViolation'

export const mongoEngine: EngineOps = {
  ...mongoOperations,
  applyPlan: applyPlanMongo,
  renameTag: renameTagMongo,
  contentStore: mongoContentStore,
  listFollowUps: listFollowUpsMongo,
  followUpDepth: followUpDepthMongo,
  hitRateLimit: hitRateLimitMongo,
  startChangeFeed: startMongoChangeFeed,
  isTransient,
  uniqueViolationField: uniqueViolationFieldMongo,
  noteDomainWrite: noteDomainWriteMongo,
  noteSiblingWrite: noteSiblingWriteMongo,
}
