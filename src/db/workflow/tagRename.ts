/**
 * A tag rename, as the running engine carries it out: SQLite applies the one plan
 * (./tagRenamePlan) atomically; MongoDB, where one transaction cannot hold 100,000 holders, runs
 * it in recorded, resumable steps (src/db/mongo/tagRename.ts) that reuse its record and audit steps.
 */
import type { Payload } from 'payload'

import { engine } from '../engine'
import type { TagRenameInput, TagRenameResult } from '../renameTypes'

export { tagRenamePlan } from './tagRenamePlan'

/** A tag rename, as the running engine carries it out (MongoDB: in recorded steps, src/db/mongo/tagRename.ts). */
export async function renameTag(payload: Payload, input: TagRenameInput): Promise<TagRenameResult> {
  const tag = await engine().contentStore(payload).tagBySlug(input.oldSlug)
  if (!tag) return { outcome: 'not_found' }
  return engine().renameTag(payload, tag.id, input)
}
