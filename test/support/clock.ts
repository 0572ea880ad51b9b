/**
 * Time passing without the wait: this process's clock (`Date`, what token lifetimes, refresh-token
 * expiry and rate-limit windows are read from) jumps forward, while timers keep real time and the
 * clock keeps running from there. The server under test is in this process (testApp, or
 * startHttpServer over it), so an expiry the test waits for happens at once. The real clock is
 * back after each file (test/support/setup.ts).
 */
import { vi } from 'vitest'

export function passTime(ms: number): void {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, advanceTimeDelta: 5 })
  vi.setSystemTime(Date.now() + ms)
}
