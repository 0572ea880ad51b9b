/**
 * Unique-index violations → the spec's 409s, for every service: the engine says which field
 * collided (src/db/uniqueViolation.ts), the caller says which conflict that field means.
 * A check before the write answers the common case; this guards the race after it.
 */
import { uniqueViolationField } from '../db/engine'
import type { ApiError } from '../platform/errors'

export type ConflictByField = Record<string, () => ApiError>

/** The conflict the violated field maps to, or the original error when it is no such violation. */
export function asConflict(err: unknown, byField: ConflictByField): unknown {
  const field = uniqueViolationField(err)
  return field !== undefined && Object.hasOwn(byField, field) ? byField[field]!() : err
}

/** Runs a write; a unique violation on a mapped field becomes its 409. */
export async function withConflicts<T>(byField: ConflictByField, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    throw asConflict(err, byField)
  }
}
