/**
 * The shapes /api/v1 answers with, as zod schemas: the routes declare them
 * (RouteSpec.responses.data), the OpenAPI document is built from them, and the contract
 * tests validate every API response against that document, so they cannot drift from
 * the services' DTO types they describe.
 */
import { z } from 'zod'

import { PERMISSIONS } from '../src/auth/permissions'
import { MODERATION_ACTIONS } from '../src/db/moderationEventTypes'

/** ISO 8601 UTC. */
const timestamp = z.string().meta({ format: 'date-time' })
const hexColor = z.string().meta({ description: 'A hex colour, `#rgb` or `#rrggbb`.' })

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

export const ContentDto = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    url: z.string(),
    tagSlugs: z.array(z.string()),
    group: z.string().nullable(),
    channel: z.string().nullable(),
    platform: z.string().nullable(),
    status: z.enum(['pending', 'approved', 'rejected']),
    isActive: z.boolean(),
    submittedBy: z.string().nullable(),
    approvedAt: timestamp.nullable(),
    rejectionReason: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    thumbnailUrl: z.string().nullable(),
  })
  .meta({ id: 'ContentDto' })

export const TagDto = z
  .object({ slug: z.string(), label: z.string(), facet: z.string().nullable(), usageCount: z.number().int() })
  .meta({ id: 'TagDto' })

/** A rename's answer: the new slug and how many content items followed it. */
export const TagRename = z.object({ slug: z.string(), contentCount: z.number().int() }).meta({ id: 'TagRename' })

export const SlugSuggestion = z.object({ slug: z.string() }).meta({ id: 'SlugSuggestion' })

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

/** Users are deactivated and roles deleted with this answer. */
export const Deleted = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: 'Deleted' })

export const TokenPair = z.object({ accessToken: z.string(), refreshToken: z.string() }).meta({ id: 'TokenPair' })

export const Session = z
  .object({ accessToken: z.string(), refreshToken: z.string(), user: UserDto })
  .meta({ id: 'Session' })

export const Me = z.object({ user: UserDto, permissions: z.array(z.enum(PERMISSIONS)) }).meta({ id: 'Me' })

/** One entry of the moderation audit trail. */
export const ModerationEventDto = z
  .object({
    id: z.string(),
    action: z.enum(MODERATION_ACTIONS),
    actor: z.object({ id: z.string(), email: z.string().nullable(), username: z.string().nullable() }).nullable(),
    target: z.object({ collection: z.string(), id: z.string(), slug: z.string() }),
    stateBefore: z.string().nullable(),
    stateAfter: z.string().nullable(),
    reason: z.string().nullable(),
    at: timestamp,
  })
  .meta({ id: 'ModerationEventDto' })

export const HealthStatus = z.object({ status: z.enum(['ok', 'ready']) }).meta({ id: 'HealthStatus' })

const nullableText = z.string().nullable()
const nullableNumber = z.number().nullable()
const nullableBool = z.boolean().nullable()

/** A written taxonomy node: its key, its parent by slug, its own fields (null when unset). */
const node = (id: string, shape: z.ZodRawShape) =>
  z.object({ id: z.string(), ...shape, createdAt: timestamp, updatedAt: timestamp }).meta({ id })

export const TaxonomyNodes = {
  surface: node('SurfaceNode', {
    slug: z.string(),
    label: nullableText,
    routePrefix: nullableText,
    browseMode: nullableText,
    accentColor: nullableText,
    displayOrder: nullableNumber,
    isActive: nullableBool,
  }),
  group: node('GroupNode', {
    slug: z.string(),
    surface: nullableText,
    label: nullableText,
    color: nullableText,
    displayOrder: nullableNumber,
    isActive: nullableBool,
  }),
  channel: node('ChannelNode', {
    slug: z.string(),
    group: nullableText,
    label: nullableText,
    displayOrder: nullableNumber,
    isActive: nullableBool,
  }),
  platform: node('PlatformNode', { slug: z.string(), label: nullableText, color: nullableText, displayOrder: nullableNumber, isActive: nullableBool }),
  facet: node('FacetNode', { key: z.string(), label: nullableText, color: nullableText, displayOrder: nullableNumber }),
}
