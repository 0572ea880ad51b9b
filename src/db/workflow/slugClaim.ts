import { newHexId } from '../ids'
import { ref, type Step } from '../writePlan'

/** Entities whose slugs are global (src/services/slugClaims.ts holds the rule). */
export type ClaimingEntity = 'content' | 'tag' | 'surface'

/**
 * A renamed holder's claim moves to its new slug inside the rename's plan: the old claim goes,
 * the new one is inserted, and the claims' unique index refuses a slug another tag, item or
 * surface holds (the plan's `onUnique` outcome, nothing written).
 */
export function moveSlugClaimSteps(entity: ClaimingEntity, owner: string, slug: string): Step[] {
  return [
    { op: 'delete', target: 'slug-claims', where: { entity, owner } },
    { op: 'insert', target: 'slug-claims', values: { id: ref(newHexId()), slug, entity, owner } },
  ]
}
