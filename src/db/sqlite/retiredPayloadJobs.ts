/**
 * Earlier builds ran follow-ups as Payload jobs (tables payload_jobs, payload_jobs_log). The
 * outbox replaced them; schema sync would drop those tables, and refuses to while they hold
 * rows. So, before the sync, in one transaction: the jobs that never ran to the end move into
 * the outbox as queued jobs (so they still happen), and the old rows are deleted. Idempotent.
 */
import { tableExists } from './connection'
import { outboxDb } from './followUpOutbox'
import { TABLES } from './tables'

const KIND = `CASE
  WHEN task_slug = 'contentThumbnail' THEN 'thumbnail'
  WHEN task_slug = 'notifySubmitter' AND json_extract(input, '$.kind') = 'content.approved' THEN 'notify.approved'
  WHEN task_slug = 'notifySubmitter' AND json_extract(input, '$.kind') = 'content.rejected' THEN 'notify.rejected'
END`

/** Returns how many unfinished jobs moved into the outbox. */
export function retirePayloadJobsSqlite(file: string): number {
  if (!tableExists(file, TABLES.payloadJobs)) return 0
  const db = outboxDb(file)
  const now = new Date()
  const retire = db.transaction((): number => {
    const moved = db
      .prepare(
        `INSERT INTO raw_follow_ups (id, content_id, kind, status, attempts, next_run_at, created_at, updated_at)
         SELECT lower(hex(randomblob(12))), json_extract(input, '$.contentId'), ${KIND}, 'queued', 0, ?, ?, ?
         FROM "${TABLES.payloadJobs}"
         WHERE completed_at IS NULL AND coalesce(has_error, 0) = 0 AND json_valid(input)
           AND json_extract(input, '$.contentId') IS NOT NULL AND (${KIND}) IS NOT NULL
         ON CONFLICT (content_id, kind) DO NOTHING`,
      )
      .run(now.getTime(), now.toISOString(), now.toISOString())
    if (tableExists(file, TABLES.payloadJobsLog)) db.exec(`DELETE FROM "${TABLES.payloadJobsLog}"`)
    db.exec(`DELETE FROM "${TABLES.payloadJobs}"`)
    return Number(moved.changes)
  })
  return retire.immediate()
}
