import { afterEach, describe, expect, it } from 'vitest'

import { clearListeners, emit, on } from '../../src/platform/events/bus'
import { captureLogs } from '../../src/platform/logging'

const event = { contentId: 'c1', slug: 'one', submittedBy: 'u1', actorId: 'm1' }

describe('event bus', () => {
  afterEach(() => {
    clearListeners()
    captureLogs(undefined)
  })

  it('delivers to every listener without the emitter waiting', async () => {
    const seen: string[] = []
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    on('content.approved', async (e) => {
      await gate
      seen.push(`slow:${e.slug}`)
    })
    on('content.approved', (e) => void seen.push(`fast:${e.slug}`))
    emit('content.approved', event)
    expect(seen).toEqual([]) // emit returned before any listener ran
    await new Promise((r) => setImmediate(r))
    expect(seen).toEqual(['fast:one'])
    release()
    await new Promise((r) => setTimeout(r, 5))
    expect(seen).toEqual(['fast:one', 'slow:one'])
  })

  it('logs a failing listener and keeps delivering to the others', async () => {
    const lines: string[] = []
    captureLogs({ write: (l) => void lines.push(l) })
    const seen: string[] = []
    on('content.approved', () => {
      throw new Error('listener broke')
    })
    on('content.approved', async () => Promise.reject(new Error('async listener broke')))
    on('content.approved', (e) => void seen.push(e.contentId))
    expect(() => emit('content.approved', event)).not.toThrow()
    await new Promise((r) => setTimeout(r, 10))
    expect(seen).toEqual(['c1'])
    const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'event.listener_failed')
    expect(failures).toHaveLength(2)
    expect(failures.every((f) => f.level === 'error' && f.event === 'content.approved')).toBe(true)
  })

  it('stops delivering after unsubscribe', async () => {
    const seen: string[] = []
    const off = on('content.approved', (e) => void seen.push(e.slug))
    off()
    emit('content.approved', event)
    await new Promise((r) => setTimeout(r, 5))
    expect(seen).toEqual([])
  })
})
