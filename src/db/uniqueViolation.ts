/**
 * Which unique field a failed write collided on, whichever layer reported it: Payload's
 * ValidationError on a unique field (both adapters, read here), or the engine's own report (read
 * by each engine: src/db/sqlite/uniqueViolation.ts, src/db/mongo/uniqueViolation.ts). Undefined
 * when the error is anything else.
 */
import { fromCauses } from '../platform/errors'

type FieldError = { path?: unknown; message?: unknown }

/** An engine's own report of a unique violation: the field, or undefined. */
export type EngineUniqueField = (err: Error) => string | undefined

function fromPayload(err: Error): string | undefined {
  if (err.name !== 'ValidationError') return undefined
  const errors = (err as { data?: { errors?: unknown } }).data?.errors
  if (!Array.isArray(errors)) return undefined
  const hit = (errors as FieldError[]).find((e) => typeof e.path === 'string' && typeof e.message === 'string' && /unique/i.test(e.message))
  return hit ? String(hit.path) : undefined
}

/** The field, from the error or the errors it wraps (a cause chain three deep at most). */
export function uniqueViolationOf(err: unknown, fromEngine: EngineUniqueField): string | undefined {
  return fromCauses(err, (e) => fromPayload(e) ?? fromEngine(e))
}
