/**
 * The guard on workflow fields for every collection that has them: an update from outside the
 * services (the console's REST) may not move them (src/services/workflowGuard.ts has the rule;
 * each service lists its own fields).
 */
import type { CollectionBeforeChangeHook } from 'payload'

import { TAG_WORKFLOW_FIELDS } from '../../src/services/tagWrites'
import { renameOnlyFields, type TaxonomyKind } from '../../src/services/taxonomyWrites'
import { changedWorkflowFields, isTrustedWrite, isVersionRestore, keepWorkflowFields, refusal, type WorkflowField } from '../../src/services/workflowGuard'

/** beforeChange hook: an update from outside the services may not change these fields. */
export function workflowFieldsGuard(collection: string, fields: readonly WorkflowField[]): CollectionBeforeChangeHook {
  return ({ data, operation, originalDoc, req, context }) => {
    if (operation !== 'update' || isTrustedWrite(req, context)) return data
    if (isVersionRestore(context)) return keepWorkflowFields(fields, data, (originalDoc ?? {}) as Record<string, unknown>)
    const changed = changedWorkflowFields(fields, data, (originalDoc ?? {}) as Record<string, unknown>)
    if (changed.length > 0) throw refusal(collection, changed)
    return data
  }
}

/** A taxonomy node's slug (key) stays out of plain updates: renames go through their operation. */
export const renameOnlyGuard = (kind: TaxonomyKind): CollectionBeforeChangeHook => {
  const { collection, fields } = renameOnlyFields(kind)
  return workflowFieldsGuard(collection, fields)
}

/** A tag's slug changes only through its rename. */
export const tagSlugGuard = workflowFieldsGuard('tags', TAG_WORKFLOW_FIELDS)
