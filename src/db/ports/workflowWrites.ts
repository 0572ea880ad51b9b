import type { Payload } from 'payload'

import type { TagRenameInput, TagRenameResult } from '../renameTypes'
import type { PlanResult, WritePlan } from '../writePlan'

/** The workflow writes (src/db/workflow): one applier per engine runs a plan atomically. */
export type WorkflowWritePort = {
  applyPlan(payload: Payload, plan: WritePlan): Promise<PlanResult>
  /** A tag rename: SQLite applies its one plan; MongoDB runs it in recorded, resumable steps. */
  renameTag(payload: Payload, tagId: string, input: TagRenameInput): Promise<TagRenameResult>
}
