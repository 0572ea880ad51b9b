import type { Payload } from 'payload'

import type { PlanResult, WritePlan } from '../writePlan'

/** The workflow writes (src/db/workflow): one applier per engine runs a plan atomically. */
export type WorkflowWritePort = {
  applyPlan(payload: Payload, plan: WritePlan): Promise<PlanResult>
}
