/**
 * The one interface both database engines implement (src/db/sqlite/engine.ts,
 * src/db/mongo/engine.ts); src/db/engine.ts selects one. A member missing or mistyped in
 * either engine is a compile error.
 */
import type { CollectionConfig, DatabaseAdapterObj, Payload, PayloadRequest } from 'payload'

import type { AppConfig } from '../config'
import type { ClaimResult, GraceSuccessor, RateLimitHit } from './authTypes'
import type { ContentStore } from './contentTypes'
import type { RecordedUpdate, RecordedUpdateResult } from './moderationEventTypes'
import type { ClaimedFollowUp, ClaimRequest, FollowUpDepth, FollowUpFailure, FollowUpRow, StatusTransition } from './moderationTypes'
import type { ReorderInput, ReorderResult } from './reorderTypes'
import type { TagRenameInput, TagRenameResult } from './renameTypes'
import type { Domain } from './versionDomains'

export type Engine = 'sqlite' | 'mongodb'

export type EngineOps = {
  readonly name: Engine
  /** Payload's database adapter for this engine. */
  adapter(db: AppConfig['database']): DatabaseAdapterObj
  /** Collections as this engine stores them (SQLite: 24-hex text ids like ObjectIds). */
  withIds(collections: CollectionConfig[]): CollectionConfig[]
  /** True once the database answers a trivial command. */
  ping(payload: Payload): Promise<boolean>
  /**
   * Before anything else at start-up: the pending migrations (src/db/migrations/<engine>) and
   * then `afterMigrate` (bootstrap), both holding a lock across processes, so processes started
   * together take turns; MongoDB checks the replica set first and builds Payload's indexes.
   */
  prepare(payload: Payload, afterMigrate?: () => Promise<void>): Promise<void>
  /** The content/taxonomy fast paths. */
  contentStore(payload: Payload): ContentStore
  claimRefreshToken(payload: Payload, tokenHash: string, reason: string, now: Date, successor?: GraceSuccessor): Promise<ClaimResult>
  hitRateLimit(payload: Payload, key: string, points: number, durationSeconds: number): Promise<RateLimitHit>
  renameTag(payload: Payload, input: TagRenameInput): Promise<TagRenameResult>
  /** Every displayOrder of one parent's children, checked against the list, in one transaction. */
  reorderTaxonomy(payload: Payload, input: ReorderInput): Promise<ReorderResult>
  /** The guarded status move, its follow-up jobs and its audit event, in one transaction. */
  transitionStatus(payload: Payload, t: StatusTransition): Promise<boolean>
  /** A guarded one-document update (soft delete, restore, taxonomy rename) and its audit event, in one transaction. */
  recordedUpdate(payload: Payload, u: RecordedUpdate): Promise<RecordedUpdateResult>
  /** The follow-up outbox: an atomic claim of one due job, then done or failed by its claimer. */
  claimFollowUp(payload: Payload, claim: ClaimRequest): Promise<ClaimedFollowUp | null>
  completeFollowUp(payload: Payload, id: string, worker: string, at: Date): Promise<boolean>
  failFollowUp(payload: Payload, failure: FollowUpFailure): Promise<boolean>
  listFollowUps(payload: Payload, contentId: string): Promise<FollowUpRow[]>
  followUpDepth(payload: Payload, now: Date): Promise<FollowUpDepth>
  /** Closes connections the service opened beside Payload's (shutdown). */
  closeOwnConnections(): void
  /** A domain's change counter, as caches key on it. */
  versionOf(payload: Payload, domain: Domain): Promise<string>
  /** For collection hooks: moves the domain's counter in the hook's transaction (SQLite: triggers already did). */
  onDomainWrite(req: PayloadRequest, domain: Domain): Promise<void>
  /** Runs a write again on the engine's transient failures, a bounded number of times. */
  withTransientRetry<T>(fn: () => Promise<T>): Promise<T>
}
