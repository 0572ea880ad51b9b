/**
 * A `where` or `sort` Payload's REST must not run answers 400 here, before Payload:
 * - a path that reaches a hidden field (an account's password hash, salt, reset token) through
 *   a relationship: Payload refuses such a `where`, but sorted by one (`sort=submittedBy.hash`)
 *   it answered, in the hidden values' order;
 * - a date compared with text that is no date (`where[createdAt][equals]=admin`, or through a
 *   relationship, `where[group.createdAt][greater_than]=x`): it reached the database as
 *   `undefined` and came back a 500 on both engines.
 * The query is read as Payload reads it (qs, ten levels deep); each path's fields are found by
 * following it through the collection's fields and its relationships, as Payload does.
 */
import type { SanitizedConfig } from 'payload'
import * as qs from 'qs-esm'

import type { Refusal } from './refusal'

/** Operators whose value is compared as the field's type. */
const COMPARED = new Set(['equals', 'not_equals', 'greater_than', 'greater_than_equal', 'less_than', 'less_than_equal', 'in', 'not_in', 'all'])

type Field = { name: string; type: string; hidden?: boolean; relationTo?: unknown; flattenedFields?: Field[] }

/** The fields a dotted path passes through from a collection, following relationships (as far as they are known). */
function fieldsAlong(config: SanitizedConfig, collection: string, path: string): Field[] {
  let fields = config.collections.find((c) => c.slug === collection)?.flattenedFields as Field[] | undefined
  const along: Field[] = []
  for (const segment of path.split('.')) {
    const field = fields?.find((f) => f.name === segment)
    if (!field) break
    along.push(field)
    if ((field.type === 'relationship' || field.type === 'upload') && typeof field.relationTo === 'string') {
      fields = config.collections.find((c) => c.slug === field.relationTo)?.flattenedFields as Field[] | undefined
    } else fields = field.flattenedFields
  }
  return along
}

/** The field a path names (its last segment's), when every segment is known. */
function fieldAt(config: SanitizedConfig, collection: string, path: string): Field | undefined {
  const along = fieldsAlong(config, collection, path)
  return along.length === path.split('.').length ? along.at(-1) : undefined
}

const notQueryable = (param: string, path: string): Refusal => ({
  status: 400,
  code: 'validation.failed',
  message: `The following path cannot be queried: ${path}`,
  details: [{ field: param, constraint: 'not_queryable', value: path.slice(0, 200) }],
})

const isDate = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Date.parse(value))

/** Each `[path, operator, value]` of a where (and/or lists walked). */
function conditions(where: unknown, out: [string, string, unknown][] = []): [string, string, unknown][] {
  if (typeof where !== 'object' || where === null) return out
  for (const [key, value] of Object.entries(where)) {
    if ((key === 'and' || key === 'or') && typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) conditions(item, out)
    } else if (typeof value === 'object' && value !== null) {
      for (const [operator, operand] of Object.entries(value)) out.push([key, operator, operand])
    }
  }
  return out
}

/** Why Payload must not run this query's `where` or `sort` on `collection`, or null. */
export function queryRefusal(config: SanitizedConfig, collection: string, search: string): Refusal | null {
  if (!search.includes('where') && !search.includes('sort')) return null
  const { where, sort } = qs.parse(search, { arrayLimit: 1000, depth: 10, ignoreQueryPrefix: true }) as { where?: unknown; sort?: unknown }
  const hidden = (path: string) => fieldsAlong(config, collection, path).some((f) => f.hidden)
  for (const item of (Array.isArray(sort) ? sort : [sort]).flatMap((s) => (typeof s === 'string' ? s.split(',') : []))) {
    const path = item.trim().replace(/^-/, '')
    if (hidden(path)) return notQueryable('sort', path)
  }
  for (const [path, operator, operand] of conditions(where)) {
    if (hidden(path)) return notQueryable(`where.${path}`, path)
    if (!COMPARED.has(operator) || fieldAt(config, collection, path)?.type !== 'date') continue
    const values = Array.isArray(operand) ? operand : typeof operand === 'string' && (operator === 'in' || operator === 'not_in' || operator === 'all') ? operand.split(',') : [operand]
    if (values.every(isDate)) continue
    return {
      status: 400,
      code: 'validation.failed',
      message: `where.${path}: ${operator} needs a date (ISO 8601).`,
      details: [{ field: `where.${path}`, constraint: 'date', value: String(operand).slice(0, 200) }],
    }
  }
  return null
}
