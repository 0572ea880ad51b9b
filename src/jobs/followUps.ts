/**
 * Follow-up work after a moderation decision (thumbnail, notification to the submitter).
 * The jobs are queued by the status move itself, in its transaction (the outbox, see
 * src/db/engine); this process's runner claims and runs them. The bus events only wake the
 * runner at once; its poll picks up jobs queued by other processes, retries that came due,
 * and jobs whose runner died. Never awaited by the request that caused them.
 */
import type { Payload } from 'payload'

import { on } from '../platform/events/bus'
import { FollowUpRunner, type FollowUpRunnerOptions } from './followUpRunner'

export { runFollowUp } from './followUpTasks'

let runner: FollowUpRunner | undefined
let unsubscribe: (() => void)[] = []

/** Starts this process's runner and wakes it on every moderation event. Called once at start-up. */
export function startFollowUps(payload: Payload, options: FollowUpRunnerOptions = {}): FollowUpRunner {
  if (runner) return runner
  const started = new FollowUpRunner(payload, options).start()
  runner = started
  unsubscribe = [on('content.approved', () => started.kick()), on('content.rejected', () => started.kick())]
  return started
}

/** Graceful shutdown: no new claims; resolves once the job in hand is finished and recorded. */
export async function stopFollowUps(): Promise<void> {
  const stopping = runner
  runner = undefined
  for (const off of unsubscribe) off()
  unsubscribe = []
  await stopping?.stop()
}
