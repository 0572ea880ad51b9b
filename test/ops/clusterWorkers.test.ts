/**
 * The cluster primary's count of running workers (server/cluster.ts). Node lists a worker in
 * `cluster.workers` until it has both exited and disconnected its IPC channel, in either order;
 * when its exit came first, the 'exit' event still finds it listed. The primary counted it as
 * running there, so on SIGTERM it never saw the last worker go and never exited
 * (test/ops/cluster.test.ts timed out once that way).
 */
import { describe, expect, it } from 'vitest'

import { liveWorkers } from '../../server/cluster'

const worker = (dead: boolean) => ({ isDead: () => dead })

describe('the primary counts running workers', () => {
  it('not a worker that has exited but is still listed (exit before disconnect)', () => {
    expect(liveWorkers([worker(true), undefined])).toHaveLength(0)
  })

  it('every worker whose process still runs, and no gap of the list', () => {
    const running = worker(false)
    expect(liveWorkers([running, worker(true), undefined, running])).toEqual([running, running])
  })
})
