/**
 * The shapes /api/v1 answers with that a service builds, each defined once, as a zod
 * schema: the service's DTO type is its output (`z.output`), the routes declare it
 * (endpoints/dtos.ts), the OpenAPI document is built from it, and the contract tests
 * validate every answer against that document.
 */
import { z } from 'zod'

import { PERMISSIONS } from '../auth/permissions'
import {
  CONTENT_FIELD_NAMES,
  CONTENT_FIELDS,
  CONTENT_STATUSES,
  type ContentField,
  type ContentFieldName,
  type ContentFields,
  type FieldKind,
} from '../db/contentRecord'
import { MODERATION_ACTIONS } from '../db/moderationTypes'

/** ISO 8601 UTC. */
export const timestamp = z.string().meta({ format: 'date-time' })
export const hexColor = z.string().meta({ description: 'A hex colour, `#rgb` or `#rrggbb`.' })

export const BrandingRecord = z
  .object({
    name: z.string(),
    slug: z.string(),
    tagline: z.string(),
    description: z.string(),
    logoUrl: z.string().meta({ description: 'Absolute URL, empty when unset.' }),
    iconUrl: z.string().meta({ description: 'Absolute URL, empty when unset.' }),
    primaryColor: hexColor,
    publicUrl: z.string(),
    version: z.string(),
    features: z.object({ selfRegistration: z.boolean(), submissionsOpen: z.boolean() }),
  })
  .meta({ id: 'BrandingRecord' })
export type BrandingRecord = z.output<typeof BrandingRecord>

export const CatalogRecord = z
  .object({
    surfaces: z.array(
      z.object({
        slug: z.string(),
        label: z.string(),
        routePrefix: z.string(),
        browseMode: z.string(),
        accentColor: hexColor,
        displayOrder: z.number(),
        groups: z.array(
          z.object({
            slug: z.string(),
            label: z.string(),
            color: hexColor,
            displayOrder: z.number(),
            channels: z.array(z.object({ slug: z.string(), label: z.string(), displayOrder: z.number() })),
          }),
        ),
      }),
    ),
    facets: z.array(z.object({ key: z.string(), label: z.string(), color: hexColor })),
    platforms: z.array(z.object({ slug: z.string(), label: z.string(), color: hexColor })),
    updatedAt: timestamp,
    etag: z.string().meta({ description: 'Weak entity tag, the same as the ETag header.' }),
  })
  .meta({ id: 'CatalogRecord' })
export type CatalogRecord = z.output<typeof CatalogRecord>

/** Each kind's answer (../db/contentRecord): instants as ISO text, relationships as ids. */
const KIND_SCHEMAS = {
  id: z.string(),
  text: z.string(),
  optionalText: z.string().nullable(),
  status: z.enum(CONTENT_STATUSES),
  list: z.array(z.string()),
  ref: z.string().nullable(),
  flag: z.boolean(),
  instant: timestamp,
  optionalInstant: timestamp.nullable(),
} satisfies Record<FieldKind, z.ZodType>
/** A relationship answered as its slug, or null. */
const slugSchema = z.string().nullable()

type DtoName<N extends ContentFieldName> = ContentFields[N]['dto'] extends { slug: infer S extends string } ? S : N
type ContentDtoShape = {
  [N in ContentFieldName as DtoName<N>]: ContentFields[N]['dto'] extends { slug: string } ? typeof slugSchema : (typeof KIND_SCHEMAS)[ContentFields[N]['kind']]
}

/** The content record as the API answers it, derived from its one definition (../db/contentRecord), in its field order. */
export const ContentDto = z
  .object(
    Object.fromEntries(
      CONTENT_FIELD_NAMES.map((name) => {
        const field: ContentField = CONTENT_FIELDS[name]
        return typeof field.dto === 'object' ? [field.dto.slug, slugSchema] : [name, KIND_SCHEMAS[field.kind]]
      }),
    ) as ContentDtoShape,
  )
  .meta({ id: 'ContentDto' })
export type ContentDto = z.output<typeof ContentDto>

export const TagDto = z
  .object({ slug: z.string(), label: z.string(), facet: z.string().nullable(), usageCount: z.number().int() })
  .meta({ id: 'TagDto' })
export type TagDto = z.output<typeof TagDto>

export const UserDto = z
  .object({
    id: z.string(),
    email: z.string(),
    username: z.string(),
    roles: z.array(z.object({ id: z.string(), name: z.string() })),
    isActive: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'UserDto' })
export type UserDto = z.output<typeof UserDto>

export const RoleDto = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.enum(PERMISSIONS)),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'RoleDto' })
export type RoleDto = z.output<typeof RoleDto>

export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() }).meta({ id: 'TokenPair' })
export type TokenPair = z.output<typeof TokenPair>

export const Session = z
  .object({ accessToken: z.string(), refreshToken: z.string(), user: UserDto })
  .meta({ id: 'Session' })
export type Session = z.output<typeof Session>

/** One entry of the moderation audit trail. */
export const ModerationEventDto = z
  .object({
    id: z.string(),
    action: z.enum(MODERATION_ACTIONS),
    actor: z.object({ id: z.string(), email: z.string().nullable(), username: z.string().nullable() }).nullable(),
    target: z.object({
      collection: z.string(),
      id: z.string(),
      slug: z.string(),
      title: z.string().nullable().meta({ description: "The item's title or the node's label as it is now (null when gone)." }),
    }),
    stateBefore: z.string().nullable(),
    stateAfter: z.string().nullable(),
    reason: z.string().nullable(),
    at: timestamp,
  })
  .meta({ id: 'ModerationEventDto' })
export type ModerationEventDto = z.output<typeof ModerationEventDto>
