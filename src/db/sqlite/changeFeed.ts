/**
 * Freshness on SQLite: the raw_versions counters, moved by triggers in every writing
 * transaction of any process (./contentSchema), are read after each write of this process
 * (its write gate lets go: a client reads its own write at once) and every POLL_MS, so a
 * write by another process, a script or a shell is seen within POLL_MS plus the event loop's
 * delay. One indexed read of three rows, ~100 times a second (a few microseconds each), instead of
 * one per request; at 10 ms the stated bound (50 ms) keeps its margin on a loaded machine, where
 * 20 ms measured up to 53 ms through a 2-worker cluster.
 */
import type { ChangeFeedPort } from '../ports/changeFeed'
import { DOMAINS, type Domain } from '../versionDomains'
import { statement } from './connection'
import { onWriteGateReleased } from './writeGate'

export const POLL_MS = 10

const COUNTERS_SQL = 'SELECT json_group_object(name, n) FROM raw_versions'

type Counters = Partial<Record<Domain, number>>

function readCounters(file: string): Counters {
  const row: unknown = statement(file, COUNTERS_SQL).get([])
  return JSON.parse(Array.isArray(row) && typeof row[0] === 'string' ? row[0] : '{}') as Counters
}

export function sqliteChangeFeed(file: () => string): ChangeFeedPort['startChangeFeed'] {
  return (_payload, sink) => {
    let last: Counters | undefined
    const check = () => {
      let now: Counters
      try {
        now = readCounters(file())
      } catch {
        // No counters table yet (before start-up prepared it) or the file is gone: blind until readable.
        if (last) sink.lost()
        last = undefined
        return
      }
      if (!last) sink.restored()
      else {
        const moved = DOMAINS.filter((d) => now[d] !== last![d])
        if (moved.length > 0) sink.changed(moved)
      }
      last = now
    }
    check()
    const timer = setInterval(check, POLL_MS)
    timer.unref()
    const stopListening = onWriteGateReleased(check)
    return () => {
      clearInterval(timer)
      stopListening()
    }
  }
}
