/**
 * The request bodies the API and the console send the services, each defined once as a zod
 * schema: the routes validate with them (and the OpenAPI document describes them), and the
 * services' input types are their output (SubmitInput, CreateUserInput, NewTagInput, ...).
 */
import { z } from 'zod'

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../auth/passwords'
import { normalizeUsername, USERNAME_PATTERN, USERNAME_RULE } from '../auth/usernames'
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from '../platform/slug'
import { TEXT_LIMITS, textField } from '../platform/text'
import { contentUrlField } from '../platform/urlPolicy'

/** Shared request fields of the identity endpoints. */
export const emailField = textField(TEXT_LIMITS.email, { trim: true }).transform((v) => v.toLowerCase()).pipe(z.email())
/** As typed: trimmed and lower-cased before its rule; no input this long could be one (its bound: src/edge/bodyBound). */
const USERNAME_INPUT_MAX = 256
export const usernameField = z.string().max(USERNAME_INPUT_MAX).transform(normalizeUsername).pipe(z.string().regex(USERNAME_PATTERN, USERNAME_RULE))
/**
 * A slug as a body names one. Its rule is checked where it is used (400 `pattern`, 409 reserved:
 * src/platform/slug); published here as JSON Schema, which also bounds the route's largest body.
 */
export const slugText = z.string().meta({ maxLength: SLUG_MAX_LENGTH, pattern: SLUG_PATTERN.source })
export const passwordField = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH)
/** POST /auth/login. No format rules here: a malformed email simply fails like any wrong credential. */
export const loginBody = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) })
/** A refresh token as issued: 32 bytes base64url; anything longer is not one of ours. */
export const refreshTokenField = z.string().min(1).max(256)

/** POST /content/submit. */
export const submitBody = z.strictObject({
  title: textField(TEXT_LIMITS.title, { min: 1, trim: true }),
  url: contentUrlField,
  description: textField(TEXT_LIMITS.description).optional(),
  slug: slugText.optional(),
  tagSlugs: z.array(slugText).max(50).optional(),
  group: slugText.min(1).optional(),
  channel: slugText.min(1).optional(),
  platform: slugText.min(1).optional(),
})
export type SubmitInput = z.output<typeof submitBody>

/** The rejection's body, for the API and the console alike. */
export const rejectBody = z.strictObject({ reason: textField(TEXT_LIMITS.reason, { trim: true }).optional() })

/** POST /users; PATCH /users/:id is a partial of it plus isActive. */
export const createUserBody = z.strictObject({
  email: emailField,
  username: usernameField,
  password: passwordField,
  roles: z.array(z.string().min(1).max(64)).max(50).optional(),
})
export const updateUserBody = createUserBody.partial().extend({ isActive: z.boolean().optional() })
export type CreateUserInput = z.output<typeof createUserBody>
export type UpdateUserInput = z.output<typeof updateUserBody>

const tagLabel = textField(TEXT_LIMITS.label, { min: 1, trim: true })
const tagFacet = textField(TEXT_LIMITS.facetKey, { min: 1 })

/** POST /tags and PATCH /tags/<slug>. */
export const createTagBody = z.strictObject({ label: tagLabel, facet: tagFacet, slug: slugText.optional() })
export const patchTagBody = z.strictObject({ label: tagLabel.optional(), facet: tagFacet.optional() })
export type NewTagInput = z.output<typeof createTagBody>
export type TagPatch = z.output<typeof patchTagBody>

/** A rename's body, for the API and the console alike. */
export const renameBody = z.strictObject({ newSlug: slugText })
