/** The workflow writes, each decided once as a plan (src/db/writePlan.ts) and applied by the running engine. */
export { transitionStatus, statusMovePlan } from './statusMove'
export { recordedUpdate, recordedUpdatePlan } from './recordedUpdate'
export { renameTag, tagRenamePlan } from './tagRename'
export { reorderTaxonomy, reorderPlan } from './taxonomyReorder'
export { claimRefreshToken, refreshClaimPlan } from './refreshClaim'
export { claimFollowUp, completeFollowUp, failFollowUp, claimFollowUpPlan, completeFollowUpPlan, failFollowUpPlan } from './followUpOutbox'
