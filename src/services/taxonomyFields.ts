/**
 * The taxonomy's fields, declared once: for each kind, its collection, its address (slug or
 * key), its parent, and each field's rule and whether a creation needs it. The API's request
 * schemas derive from this table (endpoints/taxonomyWrites.ts), the service writes and
 * answers these fields (taxonomyWrites.ts), and the collections validate with the same
 * rules (collections/taxonomyFields.ts).
 */
import { z } from 'zod'

import { TEXT_LIMITS, textField } from '../platform/text'

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/
export const ROUTE_PREFIX = /^\/[a-z0-9/-]*$/
export const BROWSE_MODES = ['grid', 'list', 'feed'] as const

/** Each field rule, once. */
export const FIELD_RULES = {
  label: textField(TEXT_LIMITS.label, { min: 1, trim: true }),
  color: z.string().regex(HEX_COLOR),
  displayOrder: z.number().int(),
  isActive: z.boolean(),
  routePrefix: z.string().regex(ROUTE_PREFIX),
  browseMode: z.enum(BROWSE_MODES),
}

export type FieldRule = keyof typeof FIELD_RULES

/** A field of a kind: its rule, and whether a creation must give it. */
export type TaxonomyField = { rule: FieldRule; required: boolean }

export type TaxonomyKind = 'surface' | 'group' | 'channel' | 'platform' | 'facet'

export type KindSpec = {
  collection: 'surfaces' | 'groups' | 'channels' | 'platforms' | 'facets'
  /** The addressing field: `slug`, or `key` for facets. Optional on creation: the default derives from the label. */
  keyField: 'slug' | 'key'
  /** The parent relationship within which the key is unique. */
  parentField?: 'surface' | 'group'
  fields: Readonly<Record<string, TaxonomyField>>
}

const required = (rule: FieldRule): TaxonomyField => ({ rule, required: true })
const optional = (rule: FieldRule): TaxonomyField => ({ rule, required: false })

const label = required('label')
const order = optional('displayOrder')
const active = optional('isActive')

export const TAXONOMY_KINDS: Readonly<Record<TaxonomyKind, KindSpec>> = {
  surface: {
    collection: 'surfaces',
    keyField: 'slug',
    fields: { label, routePrefix: required('routePrefix'), browseMode: required('browseMode'), accentColor: required('color'), displayOrder: order, isActive: active },
  },
  group: { collection: 'groups', keyField: 'slug', parentField: 'surface', fields: { label, color: required('color'), displayOrder: order, isActive: active } },
  channel: { collection: 'channels', keyField: 'slug', parentField: 'group', fields: { label, displayOrder: order, isActive: active } },
  platform: { collection: 'platforms', keyField: 'slug', fields: { label, color: required('color'), displayOrder: order, isActive: active } },
  facet: { collection: 'facets', keyField: 'key', fields: { label, color: required('color'), displayOrder: order } },
}

/** A Payload field validator from a rule: the console refuses what the API refuses. */
export function ruleValidator(rule: FieldRule, message: string): (value: unknown) => true | string {
  return (value) => (FIELD_RULES[rule].safeParse(value).success ? true : message)
}
