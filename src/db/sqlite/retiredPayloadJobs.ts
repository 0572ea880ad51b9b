/**
 * Earlier builds ran follow-ups as Payload jobs (tables payload_jobs, payload_jobs_log). The
 * outbox replaced them; schema sync would drop those tables, and refuses to while they hold
 * rows. So, before the sync, in one transaction: the jobs that never ran to the end move into
 * the outbox as queued jobs (so they still happen), and the old rows are deleted. Idempotent.
 * Runs on Payload's own (async) client: start-up must not block on the synchronous connection
 * while Payload's client is still setting the file up.
 */
import type { Payload } from 'payload'

import { OUTBOX_DDL } from './followUpOutbox'

import { libsqlClient, tableExists } from './payloadClient'

const KIND = `CASE
  WHEN task_slug = 'contentThumbnail' THEN 'thumbnail'
  WHEN task_slug = 'notifySubmitter' AND json_extract(input, '$.kind') = 'content.approved' THEN 'notify.approved'
  WHEN task_slug = 'notifySubmitter' AND json_extract(input, '$.kind') = 'content.rejected' THEN 'notify.rejected'
END`

/** Returns how many unfinished jobs moved into the outbox. */
export async function retirePayloadJobsSqlite(payload: Payload): Promise<number> {
  const client = libsqlClient(payload.db)
  if (!client || !(await tableExists(client, 'payload_jobs'))) return 0
  const now = new Date()
  const results = await client.batch(
    [
      ...OUTBOX_DDL,
      {
        sql: `INSERT INTO raw_follow_ups (id, content_id, kind, status, attempts, next_run_at, created_at, updated_at)
              SELECT lower(hex(randomblob(12))), json_extract(input, '$.contentId'), ${KIND}, 'queued', 0, ?, ?, ?
              FROM payload_jobs
              WHERE completed_at IS NULL AND coalesce(has_error, 0) = 0 AND json_valid(input)
                AND json_extract(input, '$.contentId') IS NOT NULL AND (${KIND}) IS NOT NULL
              ON CONFLICT (content_id, kind) DO NOTHING`,
        args: [now.getTime(), now.toISOString(), now.toISOString()],
      },
      ...((await tableExists(client, 'payload_jobs_log')) ? ['DELETE FROM payload_jobs_log'] : []),
      'DELETE FROM payload_jobs',
    ],
    'write',
  )
  return results[OUTBOX_DDL.length]!.rowsAffected
}
