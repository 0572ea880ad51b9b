/**
 * The follow-up runner: claims one due job at a time from the outbox (src/db/engine), runs
 * its handler, and marks it done, or requeues it with exponential backoff, giving up after
 * `maxAttempts`. Every process runs one; the claim is atomic in the database, so two runners
 * (in one process or in two) never hold the same job at once. A job whose runner died is
 * claimed again once its lease lapses, which is why the handlers are idempotent.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Payload } from 'payload'

import { engine, type ClaimedFollowUp, type FollowUpKind } from '../db/engine'
import { logger } from '../platform/logging'
import { followUpFailed } from '../platform/metrics'
import { followUpHandlers } from './followUpTasks'

import type { FollowUpHandler } from './followUpTasks'
import { claimFollowUp, completeFollowUp, failFollowUp } from '../db/workflow'

export type FollowUpRunnerOptions = {
  /** Recorded as the claimer; unique per runner. */
  workerId?: string
  /** How often to look for jobs queued elsewhere, retries that came due, and lapsed claims. */
  pollMs?: number
  /** How long a claim holds; longer than any job runs. */
  leaseMs?: number
  /** The first retry's delay; each further one doubles it. */
  backoffMs?: number
  maxAttempts?: number
  /** Handlers by kind (tests replace some). */
  handlers?: Partial<Record<FollowUpKind, FollowUpHandler>>
}

export const FOLLOW_UP_DEFAULTS = { pollMs: 1500, leaseMs: 60_000, backoffMs: 2000, maxAttempts: 3 }

const message = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000)

export class FollowUpRunner {
  readonly workerId: string
  private readonly options: typeof FOLLOW_UP_DEFAULTS
  private readonly handlers: Partial<Record<FollowUpKind, FollowUpHandler>>
  private timer: NodeJS.Timeout | undefined
  private pass: Promise<void> | undefined
  private kickedDuringPass = false
  private stopped = false

  constructor(
    private readonly payload: Payload,
    options: FollowUpRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
    this.options = {
      pollMs: options.pollMs ?? FOLLOW_UP_DEFAULTS.pollMs,
      leaseMs: options.leaseMs ?? FOLLOW_UP_DEFAULTS.leaseMs,
      backoffMs: options.backoffMs ?? FOLLOW_UP_DEFAULTS.backoffMs,
      maxAttempts: options.maxAttempts ?? FOLLOW_UP_DEFAULTS.maxAttempts,
    }
    this.handlers = options.handlers ?? {}
  }

  /** Polls in the background (the timer never keeps the process alive) and runs what is due now. */
  start(): this {
    if (this.stopped || this.timer) return this
    this.timer = setInterval(() => this.kick(), this.options.pollMs)
    this.timer.unref()
    this.kick()
    return this
  }

  /** Runs due jobs now, in the background; a kick during a pass makes the pass look again. */
  kick(): void {
    if (this.stopped) return
    if (this.pass) {
      this.kickedDuringPass = true
      return
    }
    this.pass = this.runPass().finally(() => {
      this.pass = undefined
      if (this.kickedDuringPass) {
        this.kickedDuringPass = false
        this.kick()
      }
    })
  }

  /** Runs jobs until none is due (tests, and a process that has no timer). */
  async drain(): Promise<void> {
    while (await this.runOne()) {
      /* next */
    }
  }

  /** Stops claiming; resolves once the job in hand (if any) has finished and been recorded. */
  async stop(): Promise<void> {
    this.stopped = true
    clearInterval(this.timer)
    this.timer = undefined
    await this.pass
  }

  private async runPass(): Promise<void> {
    try {
      while (!this.stopped && (await this.runOne())) {
        /* next */
      }
    } catch (err) {
      logger().error({ err, worker: this.workerId }, 'followup.claim_failed')
    }
  }

  /** Claims and runs one job; false when none was due. */
  private async runOne(): Promise<boolean> {
    const job = await claimFollowUp(this.payload, { worker: this.workerId, now: new Date(), leaseMs: this.options.leaseMs })
    if (!job) return false
    const handler = this.handlers[job.kind] ?? followUpHandlers[job.kind]
    if (job.attempts > this.options.maxAttempts) {
      // Its earlier runners died mid-job (their claims lapsed) as often as it may be tried.
      await this.recordFailure(job, new Error('abandoned: every claim lapsed without a result'))
      return true
    }
    try {
      await handler(this.payload, { contentId: job.contentId, kind: job.kind })
    } catch (err) {
      await this.recordFailure(job, err)
      return true
    }
    if (!(await completeFollowUp(this.payload, job.id, this.workerId, new Date()))) {
      logger().warn({ jobId: job.id, contentId: job.contentId, kind: job.kind, worker: this.workerId }, 'followup.claim_lost')
    } else {
      logger().debug({ jobId: job.id, contentId: job.contentId, kind: job.kind, attempts: job.attempts }, 'followup.done')
    }
    return true
  }

  private async recordFailure(job: ClaimedFollowUp, err: unknown): Promise<void> {
    const willRetry = job.attempts < this.options.maxAttempts
    const now = new Date()
    const retryAt = willRetry ? new Date(now.getTime() + this.options.backoffMs * 2 ** (job.attempts - 1)) : null
    await failFollowUp(this.payload, { id: job.id, worker: this.workerId, error: message(err), retryAt, at: now })
    followUpFailed(job.kind, willRetry)
    const line = { err, jobId: job.id, contentId: job.contentId, kind: job.kind, attempts: job.attempts, willRetry, retryAt }
    if (willRetry) logger().warn(line, 'followup.failed')
    else logger().error(line, 'followup.failed')
  }
}
