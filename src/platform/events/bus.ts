/**
 * The in-process event bus. Emitting never waits for listeners and never fails: a listener
 * that throws or rejects is logged, so follow-up work can never delay or break the write
 * that emitted the event. Nothing durable hangs on it: follow-up jobs are written with the
 * write itself (the outbox, src/jobs/followUps.ts); an event only wakes the local runner.
 */
import { logger } from '../logging'

export type EventMap = {
  'content.approved': { contentId: string; slug: string; submittedBy: string | null; actorId: string | null }
  'content.rejected': { contentId: string; slug: string; submittedBy: string | null; actorId: string | null; reason: string | null }
}

export type EventName = keyof EventMap
type Listener<E extends EventName> = (payload: EventMap[E]) => unknown

const listeners = new Map<EventName, Set<Listener<EventName>>>()

/** Subscribes; returns the unsubscribe function. */
export function on<E extends EventName>(event: E, listener: Listener<E>): () => void {
  const set = listeners.get(event) ?? new Set()
  set.add(listener as Listener<EventName>)
  listeners.set(event, set)
  return () => set.delete(listener as Listener<EventName>)
}

/** Fire-and-forget: listeners run on a later tick; their failures are logged, not thrown. */
export function emit<E extends EventName>(event: E, payload: EventMap[E]): void {
  for (const listener of listeners.get(event) ?? []) {
    setImmediate(() => {
      Promise.resolve()
        .then(() => listener(payload))
        .catch((err) => logger().error({ err, event }, 'event.listener_failed'))
    })
  }
}

/** Test hook. */
export function clearListeners(): void {
  listeners.clear()
}
