/**
 * Which unique field a failed write collided on, whichever layer reported it: Payload's
 * ValidationError on a unique field (both adapters), SQLite's `UNIQUE constraint failed:
 * table.column`, or MongoDB's duplicate key (code 11000, `keyValue`). Undefined when the
 * error is anything else. The engine-specific shapes are read here, and only here.
 */
type FieldError = { path?: unknown; message?: unknown }

function fromPayload(err: Error): string | undefined {
  if (err.name !== 'ValidationError') return undefined
  const errors = (err as { data?: { errors?: unknown } }).data?.errors
  if (!Array.isArray(errors)) return undefined
  const hit = (errors as FieldError[]).find((e) => typeof e.path === 'string' && typeof e.message === 'string' && /unique/i.test(e.message))
  return hit ? String(hit.path) : undefined
}

function fromSqlite(err: Error): string | undefined {
  const match = /UNIQUE constraint failed: ([\w.]+)/.exec(err.message)
  // `table.column` (the first column of a composite index names the field).
  return match ? match[1]!.split(',')[0]!.split('.').pop() : undefined
}

function fromMongo(err: Error): string | undefined {
  const { code, keyValue } = err as { code?: unknown; keyValue?: unknown }
  if (code !== 11000) return undefined
  if (keyValue && typeof keyValue === 'object') return Object.keys(keyValue)[0]
  const match = /index: (\w+?)(?:_\d+|_idx)? dup key/.exec(err.message)
  return match?.[1]
}

export function uniqueViolationField(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const field = fromPayload(e) ?? fromSqlite(e) ?? fromMongo(e)
    if (field) return field
  }
  return undefined
}
