/**
 * Follow-up work after a moderation decision, run through Payload's jobs queue: durable
 * (a job row in the database), retried on failure, and never awaited by the request that
 * caused it. Listeners on the in-process bus queue the jobs and kick a runner.
 */
import type { JobsConfig, Payload, TaskConfig } from 'payload'

import { on } from '../events/bus'
import { logger } from '../logging'
import { renderThumbnail } from '../services/thumbnail'

export const FOLLOW_UP_QUEUE = 'follow-ups'
const RETRIES = { attempts: 3, backoff: { type: 'exponential' as const, delay: 2000 } }

type ContentLike = {
  id: string
  slug: string
  title: string
  group?: { color?: string | null } | string | null
  submittedBy?: { id: string } | string | null
}

const idOf = (v: unknown): string | null =>
  v == null ? null : typeof v === 'object' ? String((v as { id: unknown }).id) : String(v)

/** Renders the item's thumbnail, stores it as an upload, and links it from the item. */
export const contentThumbnailTask: TaskConfig<any> = {
  slug: 'contentThumbnail',
  retries: RETRIES,
  inputSchema: [{ name: 'contentId', type: 'text', required: true }],
  handler: async ({ input, req }) => {
    const content = (await req.payload.findByID({
      collection: 'content',
      id: input.contentId,
      depth: 1,
      overrideAccess: true,
    })) as unknown as ContentLike
    const color = content.group && typeof content.group === 'object' ? (content.group.color ?? '#6b7280') : '#6b7280'
    const png = await renderThumbnail({ title: content.title, color })
    const media = await req.payload.create({
      collection: 'media',
      data: { alt: content.title },
      file: { data: png, mimetype: 'image/png', name: `thumb-${content.slug}.png`, size: png.length },
      overrideAccess: true,
    })
    await req.payload.update({
      collection: 'content',
      id: content.id,
      data: { thumbnail: media.id, thumbnailUrl: (media as { url?: string | null }).url ?? null },
      overrideAccess: true,
      context: { followUp: true },
    })
    return { output: { mediaId: String(media.id) } }
  },
}

/** Records a notification for the submitter of a moderated item. */
export const notifySubmitterTask: TaskConfig<any> = {
  slug: 'notifySubmitter',
  retries: RETRIES,
  inputSchema: [
    { name: 'contentId', type: 'text', required: true },
    { name: 'kind', type: 'text', required: true },
    { name: 'reason', type: 'text' },
  ],
  handler: async ({ input, req }) => {
    const content = (await req.payload.findByID({
      collection: 'content',
      id: input.contentId,
      depth: 0,
      overrideAccess: true,
    })) as unknown as ContentLike
    const user = idOf(content.submittedBy)
    if (!user) return { output: { skipped: true } }
    const message =
      input.kind === 'content.approved'
        ? `“${content.title}” was approved.`
        : `“${content.title}” was not accepted${input.reason ? `: ${input.reason}` : '.'}`
    await req.payload.create({
      collection: 'notifications',
      data: { user, kind: input.kind, content: content.id, message },
      overrideAccess: true,
    })
    return { output: { skipped: false } }
  },
}

export const jobsConfig: JobsConfig = {
  tasks: [contentThumbnailTask, notifySubmitterTask],
  // Retries of failed follow-ups, and anything queued while no runner was kicked.
  autoRun: [{ cron: '*/10 * * * * *', queue: FOLLOW_UP_QUEUE, limit: 20 }],
  deleteJobOnComplete: false,
  // Jobs are internal: nobody queues or runs them through Payload's REST routes.
  access: { queue: () => false, run: () => false, cancel: () => false },
}

let running: Promise<unknown> | undefined

/** Runs queued follow-ups now, in the background; concurrent kicks share one run. */
export function kickFollowUps(payload: Payload): void {
  running ??= payload.jobs
    .run({ queue: FOLLOW_UP_QUEUE, limit: 20 })
    .catch((err) => logger().error({ err }, 'jobs.run_failed'))
    .finally(() => {
      running = undefined
    })
}

/** Subscribes the follow-ups to the bus. Called once at start-up. */
export function registerFollowUps(payload: Payload): void {
  on('content.approved', async (event) => {
    await payload.jobs.queue({ task: 'contentThumbnail', queue: FOLLOW_UP_QUEUE, input: { contentId: event.contentId } })
    await payload.jobs.queue({
      task: 'notifySubmitter',
      queue: FOLLOW_UP_QUEUE,
      input: { contentId: event.contentId, kind: 'content.approved' },
    })
    kickFollowUps(payload)
  })
  on('content.rejected', async (event) => {
    await payload.jobs.queue({
      task: 'notifySubmitter',
      queue: FOLLOW_UP_QUEUE,
      input: { contentId: event.contentId, kind: 'content.rejected', reason: event.reason ?? undefined },
    })
    kickFollowUps(payload)
  })
}
