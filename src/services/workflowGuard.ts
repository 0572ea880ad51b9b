/**
 * Workflow fields (content status, soft delete, slugs with a rename operation...) change only
 * through the services that enforce their rules. The services mark their own writes with
 * WORKFLOW_CONTEXT; every other write that comes from outside the server (the console's
 * REST) and changes such a field is refused with Payload's 400 ValidationError naming the
 * field and the operation to use instead.
 */
import { APIError, type PayloadRequest, ValidationError } from 'payload'

import { ApiError, type FieldProblem } from '../platform/errors'

/** Passed as `context` by the services on the writes that move a workflow field. */
export const WORKFLOW_CONTEXT = { workflow: true } as const

/**
 * A write the guard lets through: a service's own (WORKFLOW_CONTEXT), or server code on the
 * Local API without a user (seeding, fixtures). Requests through REST always carry their
 * origin in `payloadAPI` and are guarded.
 */
export function isTrustedWrite(req: PayloadRequest, context: Record<string, unknown> | undefined): boolean {
  if (context?.workflow === true) return true
  return req.payloadAPI === 'local' && !req.user
}

export type WorkflowField = {
  name: string
  /** Where the change is made instead, shown to the console user. */
  use: string
  /** The stored form to compare; `null` for "unset". */
  comparable?: (value: unknown) => unknown
}

/** Ids, relationship objects, empty strings and dates to one comparable form. */
export function comparableValue(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return null
  if (typeof value === 'object' && value !== null && 'id' in value) return String((value as { id: unknown }).id)
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'number') return String(value)
  return value
}

/** Dates compared by instant, so a re-serialised form value is no change. */
export function comparableDate(value: unknown): unknown {
  const v = comparableValue(value)
  if (typeof v !== 'string') return v
  const t = Date.parse(v)
  return Number.isNaN(t) ? v : t
}

/**
 * A restored version (Payload's restoreVersion, `context.isRestoringVersion`) brings back a
 * document's content, never its workflow: each workflow field keeps its current value (a status, a
 * soft delete, a slug with a rename operation each change only through their own service).
 */
export function keepWorkflowFields(fields: readonly WorkflowField[], data: Record<string, unknown>, original: Record<string, unknown>): Record<string, unknown> {
  const kept = { ...data }
  for (const f of fields) kept[f.name] = original[f.name]
  return kept
}

/** Whether this write restores a stored version (set by Payload's restoreVersion operations). */
export const isVersionRestore = (context: Record<string, unknown> | undefined): boolean => context?.isRestoringVersion === true

export function refusal(collection: string, errors: { path: string; message: string }[]): ValidationError {
  return new ValidationError({ collection, errors })
}

/** The fields of `data` that differ from `original`, as ValidationError entries. */
export function changedWorkflowFields(
  fields: readonly WorkflowField[],
  data: Record<string, unknown>,
  original: Record<string, unknown>,
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = []
  for (const field of fields) {
    if (!(field.name in data)) continue
    const comparable = field.comparable ?? comparableValue
    if (comparable(data[field.name]) !== comparable(original[field.name])) {
      out.push({ path: field.name, message: `"${field.name}" is changed only through ${field.use}.` })
    }
  }
  return out
}

function problemMessage(p: FieldProblem): string {
  const value = p.value === undefined ? '' : ` "${String(p.value).slice(0, 100)}"`
  return p.constraint === 'exists' ? `Nothing${value} exists to refer to.` : `Not valid${value} (${p.constraint}).`
}

/**
 * A service's validation.failed as the console's ValidationError; a slug conflict as Payload's
 * error with its status, its code leading the message the console shows and the spec's
 * details (`{ code, slug, entity }`) as its data; other API errors keep their status.
 */
export function asConsoleError(collection: string, err: unknown): unknown {
  if (err instanceof ApiError && err.code === 'slug.conflict') {
    return new APIError(`${err.code}: ${err.message}`, err.status, { code: err.code, ...(err.details as object) }, true)
  }
  if (err instanceof ApiError && err.code === 'validation.failed' && Array.isArray(err.details)) {
    const problems = err.details as FieldProblem[]
    return refusal(
      collection,
      problems.map((p) => ({ path: p.field, message: problemMessage(p) })),
    )
  }
  return err
}
