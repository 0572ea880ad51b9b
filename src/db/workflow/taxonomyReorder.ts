/**
 * A reorder of one parent's taxonomy children: the list checked against the children as they
 * are inside the transaction, then every displayOrder written, all or nothing.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import type { ReorderInput, ReorderResult } from '../reorderTypes'
import { DONE, ref, type Step, type WritePlan } from '../writePlan'

export function reorderPlan(input: ReorderInput): WritePlan {
  const steps: Step[] = [
    {
      op: 'expectIds',
      target: input.collection,
      where: input.parent ? { [input.parent.field]: ref(input.parent.id) } : {},
      ids: input.orderedIds,
      otherwise: 'mismatch',
    },
    ...input.orderedIds.map(
      (id, index): Step => ({ op: 'update', target: input.collection, where: { id: ref(id) }, set: { displayOrder: index, updatedAt: input.at } }),
    ),
  ]
  return { name: 'taxonomy_reorder', steps, domains: ['taxonomy'], afterStep: input.afterFirstWrite && ((i) => i === 1 && input.afterFirstWrite!()) }
}

export async function reorderTaxonomy(payload: Payload, input: ReorderInput): Promise<ReorderResult> {
  const result = await engine().applyPlan(payload, reorderPlan(input))
  return result.outcome === DONE ? { outcome: 'reordered' } : { outcome: 'mismatch', actual: result.actual ?? [] }
}
