/**
 * Everything that differs between the two database engines lives behind one typed object,
 * EngineOps (src/db/engineOps.ts), implemented by sqliteEngine and mongoEngine and selected
 * once from the configuration. Nothing else in the code base may branch on the engine.
 */
import type { CollectionConfig, DatabaseAdapterObj, Payload, PayloadRequest } from 'payload'

import { getConfig, type AppConfig } from '../config'
import type { ClaimResult, GraceSuccessor, RateLimitHit } from './authTypes'
import type { ContentStore } from './contentTypes'
import type { Engine, EngineOps } from './engineOps'
import { mongoEngine } from './mongo/engine'
import type { TagRenameInput, TagRenameResult } from './renameTypes'
import { sqliteEngine } from './sqlite/engine'
import type { Domain } from './versionDomains'

export type { Engine, EngineOps } from './engineOps'
export type { Domain } from './versionDomains'

const ENGINES: Record<Engine, EngineOps> = { sqlite: sqliteEngine, mongodb: mongoEngine }

export const engineFor = (name: Engine): EngineOps => ENGINES[name]

let selected: EngineOps | undefined

/** The running engine (from the configuration, chosen on first use). */
export function engine(): EngineOps {
  selected ??= engineFor(getConfig().database.engine)
  return selected
}

export function databaseAdapter(db: AppConfig['database']): DatabaseAdapterObj {
  return engineFor(db.engine).adapter(db)
}

/** On SQLite, collections get a text `id` that defaults to a fresh 24-hex value, so ids look the same on both engines. */
export function withEngineIds(name: Engine, collections: CollectionConfig[]): CollectionConfig[] {
  return engineFor(name).withIds(collections)
}

/** True once the database answers a trivial query. */
export function ping(payload: Payload): Promise<boolean> {
  return engine().ping(payload)
}

/** Brings the database up to date (or refuses it) before anything else runs. */
export async function prepareDatabase(payload: Payload, name: Engine): Promise<void> {
  await engineFor(name).prepare(payload)
}

// ---- The content and taxonomy fast paths ----
export { invalidateCounts } from './countCache'
export type * from './contentTypes'

const stores = new WeakMap<object, ContentStore>()

export function contentStoreFor(payload: Payload): ContentStore {
  let store = stores.get(payload.db)
  if (!store) {
    store = engine().contentStore(payload)
    stores.set(payload.db, store)
  }
  return store
}

// ---- Change counters (tests read them through versionOf; hooks move them through onDomainWrite) ----

/** A domain's current change counter ('content' or 'taxonomy'), as an opaque string. */
export function versionOf(payload: Payload, domain: Domain): Promise<string> {
  return engine().versionOf(payload, domain)
}

/** Collection hooks call this on every write to a versioned collection (a no-op where triggers do it). */
export function onDomainWrite(req: PayloadRequest, domain: Domain): Promise<void> {
  return engine().onDomainWrite(req, domain)
}

/** Runs a write again on the engine's transient failures (MongoDB write conflicts), with bounded backoff. */
export function withTransientRetry<T>(fn: () => Promise<T>): Promise<T> {
  return engine().withTransientRetry(fn)
}

// ---- Identity primitives (refresh-token claim, rate-limit counters) ----
export type { ClaimResult, GraceSuccessor, RateLimitHit } from './authTypes'

/**
 * Atomically revokes an unrevoked refresh token (conditional update on its hash). Of two
 * concurrent callers presenting the same token exactly one gets `claimed: true`. With a
 * `successor`, the same conditional update stores it on the row (refresh reuse grace).
 */
export function claimRefreshToken(
  payload: Payload,
  tokenHash: string,
  reason: string,
  now = new Date(),
  successor?: GraceSuccessor,
): Promise<ClaimResult> {
  return engine().claimRefreshToken(payload, tokenHash, reason, now, successor)
}

/** One hit on the database-backed rate-limit counter `key` (fixed window). */
export function hitRateLimit(payload: Payload, key: string, points: number, durationSeconds: number): Promise<RateLimitHit> {
  return engine().hitRateLimit(payload, key, points, durationSeconds)
}

// ---- Tag rename: tag, content tagSlugs, audit and counters in one transaction ----
export type { TagRenameInput, TagRenameResult } from './renameTypes'

export function renameTagAtomically(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  return engine().renameTag(payload, input)
}

// ---- Moderation: a status move that only one of concurrent callers can make, committed ----
// ---- together with its follow-up jobs (the outbox), which runners claim one at a time ----
import type { ClaimedFollowUp, ClaimRequest, FollowUpFailure, FollowUpRow, StatusTransition } from './moderationTypes'

export type {
  ClaimedFollowUp,
  ClaimRequest,
  FollowUpFailure,
  FollowUpKind,
  FollowUpRow,
  FollowUpStatus,
  StatusTransition,
} from './moderationTypes'
export { FOLLOW_UP_KINDS } from './moderationTypes'

/**
 * True when this call moved the item (and queued `t.followUps` in the same transaction);
 * false when it was no longer in `from` (and nothing was queued).
 */
export function transitionContentStatus(payload: Payload, t: StatusTransition): Promise<boolean> {
  return engine().transitionStatus(payload, t)
}

/** Atomically claims one due follow-up job for `claim.worker` (null when none is due). */
export function claimFollowUp(payload: Payload, claim: ClaimRequest): Promise<ClaimedFollowUp | null> {
  return engine().claimFollowUp(payload, claim)
}

/** Marks a claimed job done; false when `worker` no longer holds it. */
export function completeFollowUp(payload: Payload, id: string, worker: string, at = new Date()): Promise<boolean> {
  return engine().completeFollowUp(payload, id, worker, at)
}

/** Records a failed run: requeued at `retryAt`, or failed for good when that is null. */
export function failFollowUp(payload: Payload, failure: FollowUpFailure): Promise<boolean> {
  return engine().failFollowUp(payload, failure)
}

/** The follow-up jobs of one item, oldest first. */
export function listFollowUps(payload: Payload, contentId: string): Promise<FollowUpRow[]> {
  return engine().listFollowUps(payload, contentId)
}
