/**
 * A query Payload's REST must not run answers 400 here, before Payload. The query is parsed
 * once, as Payload parses it (qs, the same options: `%6cimit`, `limit[]=` and `%77here` are what
 * Payload reads them as), and every rule reads that:
 * - longer than a request line may carry (16 KiB), of more parameters than Payload's parser
 *   keeps (qs: 1,000) or of more nested keys than MAX_KEYS (qs's clean-up of nested objects is
 *   quadratic in their number): Payload and qs read every parameter of a query in one turn of
 *   the loop, so the largest query is what bounds that turn (QUERY_LIMITS; a method-override
 *   read's form body is a query too, ./payloadRestGuard);
 * - `limit`, `page` or `depth` that is not one small whole number, or a read of more rows than
 *   READ_ROWS at its depth (`limit × depth`, Payload's default depth 2 when none is given; the
 *   console asks for at most 250 rows at depth 0); a list read without pages (`limit=0`,
 *   `pagination=false` without a limit) is a read of every row;
 * - a `where` given as a JSON string (Payload parses it outside qs's limits and every check
 *   below), of more than MAX_CONDITIONS conditions, an operator Payload does not know, a point
 *   operator (`near`, `within`, `intersects`) on a field that is no point, an object where a
 *   value is compared (`equals[x]=1`, `like[0]=a`), or a `like`/`contains` of more than
 *   MAX_LIKE_WORDS words (each becomes a LIKE of its own): each was a 500, or seconds of work;
 * - a `sort` of more than MAX_SORT_FIELDS fields (Payload throws and catches an error per
 *   unknown one; docs/benchmarks.md, *Measurements behind the code*);
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

/** What one query may be (./payloadRestGuard holds a method-override read's form to the same). */
export const QUERY_LIMITS = { bytes: 16 * 1024, parameters: 1_000, keys: 1_500 } as const
/**
 * Rows × depth one read may ask for: the console's largest pages are 100 rows, its relationship
 * labels ask `limit=250` for the ids of a page (`@payloadcms/ui`'s RelationshipProvider; rows are
 * then as many as the ids, `where[id][in]`), and the API tab one document at depth 10. What a
 * read of full rows costs the loop: (docs/benchmarks.md, *Measurements behind the code*).
 */
export const READ_ROWS = 100
export const MAX_DEPTH = 10
export const MAX_CONDITIONS = 100
export const MAX_LIKE_WORDS = 20
export const MAX_SORT_FIELDS = 8

/** Payload's operators (payload's validOperators). */
const OPERATORS = new Set([
  'equals',
  'not_equals',
  'in',
  'not_in',
  'all',
  'exists',
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
  'like',
  'not_like',
  'contains',
  'near',
  'within',
  'intersects',
])
/** Operators on a point field only (a GeoJSON object or `lng,lat,…`). */
const POINT_OPERATORS = new Set(['near', 'within', 'intersects'])
/** Operators that take a list (qs's `in[0]=a&in[1]=b`, or a comma list). */
const LIST_OPERATORS = new Set(['in', 'not_in', 'all'])
const WORD_OPERATORS = new Set(['like', 'not_like', 'contains'])

const refused = (field: string, constraint: string, message: string, value?: string): Refusal => ({
  status: 400,
  code: 'validation.failed',
  message,
  details: [{ field, constraint, ...(value !== undefined ? { value: value.slice(0, 200) } : {}) }],
})

export const QUERY_TOO_LONG = refused('(query)', 'max_bytes', `The query is longer than ${QUERY_LIMITS.bytes} bytes.`)

/** A query too long or of too many parameters to read at all (the count is of `&`s: no parse). */
export function queryShapeRefusal(search: string): Refusal | null {
  if (search.length > QUERY_LIMITS.bytes + 1) return QUERY_TOO_LONG
  let parameters = 1
  for (let at = search.indexOf('&'); at !== -1; at = search.indexOf('&', at + 1)) {
    if (++parameters > QUERY_LIMITS.parameters) {
      return refused('(query)', 'max_parameters', `The query has more than ${QUERY_LIMITS.parameters} parameters.`)
    }
  }
  // Nested keys, written `[` or percent-encoded (`%5B`): each is an object qs keeps and cleans up.
  const keys = search.match(/\[|%5b/gi)?.length ?? 0
  if (keys > QUERY_LIMITS.keys) return refused('(query)', 'max_keys', `The query nests more than ${QUERY_LIMITS.keys} keys.`)
  return null
}

/** A query as Payload reads it (its createPayloadRequest's qs options). */
export type PayloadQuery = Record<string, unknown>

export const parsePayloadQuery = (search: string): PayloadQuery =>
  search.length <= 1 ? {} : (qs.parse(search, { allowEmptyArrays: true, arrayLimit: 1000, depth: 10, ignoreQueryPrefix: true }) as PayloadQuery)

const wholeNumber = (query: PayloadQuery, name: string): number | undefined | null => {
  const value = query[name]
  if (value === undefined) return undefined
  return typeof value === 'string' && /^\d{1,7}$/.test(value) ? Number(value) : null
}

/** How many ids a where names when it is (or ANDs) `id in [...]`: the most rows it can match. */
function idsNamed(where: unknown): number | undefined {
  if (typeof where !== 'object' || where === null) return undefined
  const w = where as Record<string, unknown>
  const inList = (w.id as { in?: unknown } | undefined)?.in
  if (Array.isArray(inList)) return inList.length
  if (typeof inList === 'string') return inList.split(',').length
  const and = Array.isArray(w.and) ? w.and : typeof w.and === 'object' && w.and !== null ? Object.values(w.and) : []
  const counts = and.map(idsNamed).filter((n): n is number => n !== undefined)
  return counts.length > 0 ? Math.min(...counts) : undefined
}

const numberRefusal = (name: string, min: number, max: number, value: unknown): Refusal =>
  refused(name, 'type', `${name} must be a whole number from ${min} to ${max}.`, typeof value === 'string' ? value : JSON.stringify(value))

/**
 * How much a request reads: `list` (a collection's rows or versions) or one document; a read
 * (GET) or a write by a `where` (Payload's bulk edit and delete send `limit=0`, every match).
 */
export function readSizeRefusal(query: PayloadQuery, options: { read: boolean; list: boolean; defaultDepth: number }): Refusal | null {
  const page = wholeNumber(query, 'page')
  if (page === null || (page !== undefined && (page < 1 || page > 1_000_000))) return numberRefusal('page', 1, 1_000_000, query.page)
  const depth = wholeNumber(query, 'depth')
  if (depth === null || (depth !== undefined && depth > MAX_DEPTH)) return numberRefusal('depth', 0, MAX_DEPTH, query.depth)
  const limit = wholeNumber(query, 'limit')
  if (!options.read || !options.list) {
    if (limit === null || (limit !== undefined && limit > 10_000)) return numberRefusal('limit', 0, 10_000, query.limit)
    return null
  }
  const levels = Math.max(1, depth ?? options.defaultDepth)
  const most = Math.floor(READ_ROWS / levels)
  // Rows read: the limit, or fewer when the where names them by id (the console's label reads).
  const rows = limit === null || limit === undefined ? limit : Math.min(limit, idsNamed(query.where) ?? limit)
  if (rows === null || (rows !== undefined && (rows < 1 || rows > most))) {
    return refused(
      'limit',
      rows === null ? 'type' : 'max_rows',
      `A read returns at most ${READ_ROWS} rows at depth 0 or 1 (rows × depth ≤ ${READ_ROWS}): at depth ${depth ?? options.defaultDepth}, limit from 1 to ${most}, or ids named in where[id][in].`,
      typeof query.limit === 'string' ? query.limit : JSON.stringify(query.limit),
    )
  }
  // A read without pages is a read of every row.
  if (query.pagination === 'false' && limit === undefined) {
    return refused('limit', 'required', `pagination=false needs a limit (at most ${most}).`)
  }
  return null
}

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

/** Each `[path, operator, value]` of a where (and/or lists walked); null past `max` conditions. */
function conditions(where: unknown, max = MAX_CONDITIONS): [string, string, unknown][] | null {
  const out: [string, string, unknown][] = []
  // qs nests ten levels at most, so this stack stays shallow; the count bounds the walk.
  const pending: unknown[] = [where]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null) continue
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'and' || key === 'or') && typeof value === 'object' && value !== null) {
        for (const item of Object.values(value)) pending.push(item)
      } else if (typeof value === 'object' && value !== null) {
        for (const [operator, operand] of Object.entries(value)) {
          if (out.push([key, operator, operand]) > max) return null
        }
      } else if (out.push([key, 'equals', value]) > max) return null
    }
  }
  return out
}

/** Why this condition cannot be run as it is written (an unknown operator, a shape no operator takes), or null. */
function conditionShapeRefusal(config: SanitizedConfig, collection: string, path: string, operator: string, operand: unknown): Refusal | null {
  const field = `where.${path}`
  if (!OPERATORS.has(operator)) return refused(field, 'operator', `where.${path}: ${operator} is not an operator.`, operator)
  if (POINT_OPERATORS.has(operator)) {
    if (fieldAt(config, collection, path)?.type !== 'point') return refused(field, 'operator', `where.${path}: ${operator} applies to point fields only.`, operator)
    return null
  }
  // A list operator takes a list of values (qs's `in[0]=a&in[1]=b`) or a comma list; every other one value.
  const shaped = typeof operand !== 'object' || operand === null || (LIST_OPERATORS.has(operator) && Array.isArray(operand) && operand.every((v) => typeof v !== 'object' || v === null))
  if (!shaped) {
    return refused(field, 'type', `where.${path}: ${operator} compares with ${LIST_OPERATORS.has(operator) ? 'a list of values' : 'one value'}, not an object.`)
  }
  if (WORD_OPERATORS.has(operator) && typeof operand === 'string' && operand.trim().split(/\s+/).length > MAX_LIKE_WORDS) {
    return refused(field, 'max_words', `where.${path}: ${operator} matches at most ${MAX_LIKE_WORDS} words.`, operand)
  }
  return null
}

/** Why Payload must not run this query's `where` or `sort` on `collection`, or null. */
export function queryRefusal(config: SanitizedConfig, collection: string, query: PayloadQuery): Refusal | null {
  const { where, sort } = query
  if (typeof where === 'string' || Array.isArray(where)) {
    return refused('where', 'type', 'where is given as where[field][operator]=value, not as one text.')
  }
  const sorts = (Array.isArray(sort) ? sort : [sort]).flatMap((s) => (typeof s === 'string' ? s.split(',') : []))
  if (sorts.length > MAX_SORT_FIELDS) return refused('sort', 'max_items', `sort names at most ${MAX_SORT_FIELDS} fields.`)
  const hidden = (path: string) => fieldsAlong(config, collection, path).some((f) => f.hidden)
  for (const item of sorts) {
    const path = item.trim().replace(/^-/, '')
    if (hidden(path)) return notQueryable('sort', path)
  }
  const all = conditions(where)
  if (all === null) return refused('where', 'max_conditions', `A where holds at most ${MAX_CONDITIONS} conditions.`)
  for (const [path, operator, operand] of all) {
    if (hidden(path)) return notQueryable(`where.${path}`, path)
    const shape = conditionShapeRefusal(config, collection, path, operator, operand)
    if (shape) return shape
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
