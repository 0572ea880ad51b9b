/**
 * A workflow write as data: what to change under which guard, in which order, and what it
 * means when a guard no longer holds. Each write is decided once, engine-neutral, in
 * src/db/workflow/; each engine has one applier (src/db/sqlite/planApplier.ts,
 * src/db/mongo/planApplier.ts) that runs a plan's steps in one transaction, all or nothing.
 *
 * Fields are Payload's field names; values carry their meaning (a document id, an instant),
 * and each applier stores them as its engine does (SQLite: `<field>_id` text columns, ISO
 * text or epoch integers, 0/1; MongoDB: ObjectIds, Dates, booleans).
 */
import type { Domain } from './freshness'

/** A document id: the `id` field, or a relationship to another document (null: none). */
export class Ref {
  constructor(readonly id: string | null) {}
}

export const ref = (id: string | null): Ref => new Ref(id)

export type Value = string | number | boolean | null | Date | Ref

/** A value known only while the plan runs: from the counts of the steps before it. */
export type Later = (counts: readonly number[]) => Value

export type Fields = Record<string, Value | Later>

/**
 * Equality (null: absent or null), or a comparison. `ne` matches absent and null too;
 * `orNull` lets absent and null pass a comparison.
 */
export type Condition = Value | { ne: Value } | { lt: Value; orNull?: true } | { lte: Value } | { gte: Value }

export type Where = Record<string, Condition>

/** Payload collections the workflow writes, and the follow-up outbox (the service's own). */
export type Target =
  | 'content'
  | 'tags'
  | 'surfaces'
  | 'groups'
  | 'channels'
  | 'platforms'
  | 'facets'
  | 'refresh-tokens'
  | 'moderation-events'
  | 'tag-renames'
  | 'slug-claims'
  | 'follow-ups'

export type Step =
  /** Every match updated; with `one`, exactly one row must match or the plan ends with that outcome. */
  | { op: 'update'; target: Target; where: Where; set: Fields; inc?: Record<string, number>; one?: string }
  /** With `unlessExists`, a row with the same values of those fields is kept as it is. */
  | { op: 'insert'; target: Target; values: Fields; unlessExists?: readonly string[] }
  | { op: 'delete'; target: Target; where: Where }
  /** Every array `field` holding `from` holds `to` in its place instead (order kept). */
  | { op: 'replaceInArray'; target: Target; field: string; from: string; to: string; set: Fields }
  /** The ids matching `where` must be exactly `ids` (each once), else the plan ends with `otherwise`. */
  | { op: 'expectIds'; target: Target; where: Where; ids: readonly string[]; otherwise: string }
  /** The match with the smallest `oldest` is updated and its `read` fields returned (none: null). */
  | { op: 'claimOne'; target: Target; where: Where; oldest: string; set: Fields; inc?: Record<string, number>; read: readonly string[] }

export type WritePlan = {
  /** For logs and metrics. */
  name: string
  steps: readonly Step[]
  /** The cached domains the plan changes (src/db/freshness/generations). */
  domains: readonly Domain[]
  /** The content ids it writes, marked at its commit (absent with a content domain: every row). */
  rows?: readonly string[]
  /** A unique index refusing a value ends the plan with this outcome instead of an error. */
  onUnique?: string
  /** Test seam: runs inside the transaction after step `index`; a throw rolls everything back. */
  afterStep?: (index: number) => void
}

/** `done`, or the outcome a failed guard named (nothing written). */
export type PlanResult = {
  outcome: string
  /** Rows each step matched, in order. */
  counts: number[]
  /** expectIds that failed: the ids found. */
  actual?: string[]
  /** claimOne: the claimed row's `read` fields (ids as hex strings), or null. */
  claimed?: Record<string, string | number | boolean | null> | null
}

export const DONE = 'done'

/** A value with the step counts so far. */
export const resolveField = (v: Value | Later, counts: readonly number[]): Value => (typeof v === 'function' ? v(counts) : v)

/** Thrown inside an applier's transaction to end the plan with an outcome (and roll back). */
export class PlanStop extends Error {
  constructor(
    readonly outcome: string,
    readonly actual?: string[],
  ) {
    super(outcome)
    this.name = 'PlanStop'
  }
}

/** The same set of ids, each once. */
export function sameMembers(actual: readonly string[], expected: readonly string[]): boolean {
  if (actual.length !== expected.length || new Set(expected).size !== expected.length) return false
  const have = new Set(actual)
  return expected.every((id) => have.has(id))
}
