/**
 * The shapes /api/v1 answers with, as zod schemas: the routes declare them
 * (RouteSpec.responses.data), the OpenAPI document is built from them, and the contract
 * tests validate every API response against that document. A shape a service builds is
 * defined in src/services/dtos.ts, where the service's type is its output; the shapes
 * only a route builds are here.
 */
import { z } from 'zod'

import { PERMISSIONS } from '../src/auth/permissions'
import { timestamp, UserDto } from '../src/services/dtos'

export {
  BrandingRecord,
  CatalogRecord,
  ContentDto,
  ModerationEventDto,
  RoleDto,
  Session,
  TagDto,
  TokenPair,
  UserDto,
} from '../src/services/dtos'

/** A rename's answer: the new slug and how many content items followed it. */
export const TagRename = z.object({ slug: z.string(), contentCount: z.number().int() }).meta({ id: 'TagRename' })

export const SlugSuggestion = z.object({ slug: z.string() }).meta({ id: 'SlugSuggestion' })

/** Users are deactivated and roles deleted with this answer. */
export const Deleted = z.object({ deleted: z.literal(true), id: z.string() }).meta({ id: 'Deleted' })

export const Me = z.object({ user: UserDto, permissions: z.array(z.enum(PERMISSIONS)) }).meta({ id: 'Me' })

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
