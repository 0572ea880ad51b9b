/** POST /slug/suggest: the suggestion algorithm (src/slug.ts) plus the two cases it leaves open. */
import { validationFailed } from '../errors'
import { RESERVED_SLUGS, suggestSlug } from '../slug'

export const SLUG_ENTITIES = ['content', 'tag', 'surface', 'group', 'channel', 'platform'] as const

/**
 * Uniqueness is not checked (per spec). A reserved result gets `-2`, the suffix the
 * submit flow uses for collisions, so every suggestion is usable as is; a value with no
 * letters or digits left is 400 validation.failed (constraint `no_alphanumerics`).
 */
export function suggest(value: string): { slug: string } {
  const slug = suggestSlug(value)
  if (slug === '') throw validationFailed([{ field: 'value', constraint: 'no_alphanumerics', value }])
  return { slug: RESERVED_SLUGS.includes(slug) ? `${slug}-2` : slug }
}
