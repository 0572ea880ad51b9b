/**
 * The query strings of the list routes, each defined once, as a zod schema: it validates
 * the query (src/edge/validation's parseQuery), gives each spec rule its code
 * (pagination.invalid, sort.unsupported, query.too_short; validation.failed with
 * `{ field, constraint, value }` for the rest), is the route's declaration the OpenAPI
 * document is built from, and its output is the handler's typed input.
 *
 * Parameters arrive as text. The order of an object's keys is the order of the field list
 * of validation.failed; which code wins when several rules fail is the error table's order
 * (src/edge/validation). A rule zod cannot express in JSON Schema (lengths in code points,
 * a parameter that is an integer in text) is documented with `meta`, from the same constants.
 */
import { z } from 'zod'

import { answering, problem } from '../src/edge/validation'
import { MODERATION_ACTIONS, type ModerationAction } from '../src/db/moderationTypes'
import { ApiError } from '../src/platform/errors'
import { type Page, pageValue } from '../src/platform/pagination'
import {
  LIST_SORTS,
  type ListParams,
  PERIODS,
  type Period,
  RESERVED_SORTS,
  splitTerms,
  STATUS_FILTERS,
  VALUE_FILTERS,
  type ValueFilterName,
  type ValueFilters,
} from '../src/services/contentQuery'
import type { ModerationEventFilters } from '../src/services/moderationEvents'
import { SLUG_PATTERN } from '../src/platform/slug'
import { hasControlCharacters, TEXT_LIMITS, textField, textLength } from '../src/platform/text'
import { urlKeyOf } from '../src/platform/urlNormalize'
import { isAbsoluteHttpUrl } from '../src/platform/urlPolicy'

/** An offset or limit: text of digits, checked against the bounds configured now (src/platform/pagination). */
const pageParameter = (name: keyof Page, description: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = pageValue(name, raw)
      if (value instanceof ApiError) {
        ctx.addIssue(answering(value))
        return z.NEVER
      }
      return value
    })
    .meta({ type: 'integer', minimum: 0, description })

/** offset and limit of every paginated list (bounds from PAGINATION_MAX_OFFSET, PAGINATION_MAX_LIMIT). */
export const paginationQuery = z.object({
  offset: pageParameter('offset', 'Rows to skip: 0 to PAGINATION_MAX_OFFSET (10000 by default).'),
  limit: pageParameter(
    'limit',
    'Rows to return: 1 to PAGINATION_MAX_LIMIT (200 by default; default PAGINATION_DEFAULT_LIMIT, 30); 0 counts only.',
  ),
})

const MAX_LIST_VALUES = 50

/**
 * Comma-separated values: trimmed, empties dropped, de-duplicated (none: no filter), at most 50,
 * each checked by `check` (which adds its own problems).
 */
const commaList = (description: string, check: (value: string, ctx: z.RefinementCtx) => void) =>
  z
    .string()
    .transform((raw, ctx) => {
      const values = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))]
      if (values.length === 0) return undefined
      // Past the limit nothing else is looked at: the list is refused whole.
      if (values.length > MAX_LIST_VALUES) {
        ctx.addIssue(problem('max', raw))
        return undefined
      }
      for (const v of values) check(v, ctx)
      return values
    })
    .optional()
    .meta({ description })

/** Comma-separated slugs, each a slug. */
const slugList = (what: string) =>
  commaList(`Comma-separated ${what} slugs (OR within the list).`, (v, ctx) => {
    if (!SLUG_PATTERN.test(v)) ctx.addIssue(problem('pattern', v))
  })

/**
 * A value filter of the content record (src/db/contentRecord: a field declared with `filter`):
 * comma-separated plain text values, each of at most a slug value's length.
 */
const valueList = (description: string) =>
  commaList(`${description} Comma-separated (OR within the list).`, (v, ctx) => {
    if (hasControlCharacters(v)) ctx.addIssue(problem('control_characters', v))
    else if (textLength(v) > TEXT_LIMITS.slugValue) ctx.addIssue(problem('max', v))
  })

/** GET /content's value filters, one parameter per field declared with `filter`, named as the field. */
const valueFilterParameters = Object.fromEntries(VALUE_FILTERS.map((f) => [f.name, valueList(f.description)])) as {
  [N in ValueFilterName]: ReturnType<typeof valueList>
}

/** The value filters given (undefined when none, so a list's cache key is what it was without them). */
function valueFiltersOf(p: Partial<Record<ValueFilterName, string[] | undefined>>): ValueFilters | undefined {
  const given = VALUE_FILTERS.flatMap((f) => (p[f.name] ? [[f.name, p[f.name]] as const] : []))
  return given.length ? (Object.fromEntries(given) as ValueFilters) : undefined
}

/** One slug, trimmed; empty is no filter. */
const oneSlug = (description: string) =>
  z
    .string()
    .transform((raw, ctx) => {
      const value = raw.trim()
      if (!value) return undefined
      if (!SLUG_PATTERN.test(value)) ctx.addIssue(problem('pattern', value))
      return value
    })
    .optional()
    .meta({ description })

const Q_MIN = 2

/** q, trimmed: empty is no search (an empty search box); 1 character is query.too_short. */
const searchText = z
  .string()
  .transform((raw, ctx) => {
    const q = raw.trim()
    if (!q) return undefined
    if ([...q].length < Q_MIN) {
      ctx.addIssue(answering(new ApiError(400, 'query.too_short', `q must be at least ${Q_MIN} characters.`, { field: 'q', min: Q_MIN, value: q })))
    } else if (hasControlCharacters(q)) ctx.addIssue(problem('control_characters', q))
    else if (textLength(q) > TEXT_LIMITS.contentQuery) ctx.addIssue(problem('max', q))
    return q
  })
  .optional()
  .meta({ description: 'Text search over title and description.', minLength: Q_MIN, maxLength: TEXT_LIMITS.contentQuery })

/** A reserved sort is its own error (sort.unsupported), before the enum's validation.failed. */
const sortParameter = z
  .enum(LIST_SORTS)
  .optional()
  .superRefine(
    (sort, ctx) => {
      if (typeof sort === 'string' && RESERVED_SORTS.includes(sort)) {
        ctx.addIssue(
          answering(new ApiError(400, 'sort.unsupported', `sort=${sort} is reserved and not supported yet.`, { sort, supported: [...LIST_SORTS] })),
        )
      }
    },
    // The enum has already refused the value; this says with which code.
    { when: () => true },
  )
  .meta({ description: `Default newest; ${RESERVED_SORTS.join(' and ')} are reserved (400 sort.unsupported).` })

/** GET /content's parameters, in the order validation.failed lists their problems. */
const listContentParameters = paginationQuery.extend({
  q: searchText,
  sort: sortParameter,
  period: z.enum(Object.keys(PERIODS) as [Period, ...Period[]]).optional().meta({ description: 'Window over approvedAt; default all.' }),
  status: z.enum(STATUS_FILTERS).optional().meta({ description: 'Default approved; any other needs content.moderate.' }),
  estimate: z.enum(['true', 'false']).optional().meta({ description: 'Allow an approximate total on very large unfiltered lists.' }),
  tags: slugList('tag'),
  platform: slugList('platform'),
  group: oneSlug('A group slug.'),
  channel: oneSlug('A channel slug; requires group.'),
  url: z
    .string()
    .refine((url) => textLength(url) <= TEXT_LIMITS.url && isAbsoluteHttpUrl(url), { params: { constraint: 'url' } })
    .optional()
    .meta({ description: 'An absolute http(s) URL: the caller-visible item whose normalised URL is the same ("already submitted?").' }),
  ...valueFilterParameters,
})

/** GET /content -> the content service's list request (the status permission check, 403, is the service's). */
export const listContentQuery = listContentParameters
  .superRefine(
    (p, ctx) => {
      if (p.channel !== undefined && p.group === undefined) ctx.addIssue({ ...problem('requires_group', undefined), path: ['channel'] })
    },
    // Checked even when another parameter is refused: a malformed group still counts as given.
    { when: ({ value }) => typeof value === 'object' && value !== null },
  )
  .transform(
    (p): ListParams => ({
      q: p.q,
      terms: p.q === undefined ? undefined : splitTerms(p.q),
      tags: p.tags,
      group: p.group,
      channel: p.channel,
      platforms: p.platform,
      period: p.period ?? 'all',
      // With a search and no explicit sort, the best matches come first.
      sort: p.sort ?? (p.q !== undefined ? 'relevance' : 'newest'),
      status: p.status ?? 'approved',
      offset: p.offset,
      limit: p.limit,
      estimate: p.estimate === 'true',
      urlKey: p.url === undefined ? undefined : urlKeyOf(p.url),
      values: valueFiltersOf(p),
    }),
  )

/** A GET /tags filter, trimmed; empty is no filter. */
const tagFilter = (max: number, min = 0) =>
  textField(max, { min, trim: true })
    .transform((v) => v || undefined)
    .optional()

/** GET /tags: facet (a facet key) and q (a prefix of the slug or the label). */
export const listTagsQuery = paginationQuery.extend({
  facet: tagFilter(TEXT_LIMITS.facetKey, 1),
  q: tagFilter(TEXT_LIMITS.tagQuery),
})

/** A moderation-event filter, trimmed (empty: no filter), with the rule it must meet. */
const eventFilter = <T extends string>(constraint: string, accepts: (value: string) => boolean) =>
  z
    .string()
    .transform((raw, ctx) => {
      const value = raw.trim()
      if (!value) return undefined
      if (!accepts(value)) ctx.addIssue(problem(constraint, value))
      return value as T
    })
    .optional()

/** The audit trail's filters (GET /moderation/events and the console's /admin/audit). */
export const moderationEventFilters = z.object({
  action: eventFilter<ModerationAction>('enum', (v) => (MODERATION_ACTIONS as readonly string[]).includes(v)).meta({
    enum: [...MODERATION_ACTIONS],
  }),
  actor: eventFilter('pattern', (v) => /^[0-9a-f]{24}$/i.test(v)).meta({ description: 'A user id (24 hexadecimal characters).' }),
  target: eventFilter('pattern', (v) => v.length <= 200 && /^[\w.-]+$/.test(v)).meta({ description: 'The slug or id of the changed document.' }),
  from: eventFilter('type', (v) => !Number.isNaN(Date.parse(v))).meta({ description: 'Inclusive lower bound: an ISO date or timestamp.' }),
  to: eventFilter('type', (v) => !Number.isNaN(Date.parse(v))).meta({ description: 'Inclusive upper bound: an ISO date or timestamp.' }),
}) satisfies z.ZodType<ModerationEventFilters>

/** GET /moderation/events: the page, then the filters. */
export const moderationEventsQuery = paginationQuery.extend(moderationEventFilters.shape)
