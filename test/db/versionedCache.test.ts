/**
 * The per-version cache (src/db/freshness/versionedCache): values kept per key until the version moves,
 * least recent evicted first, and, with keepOnSecondAsk, a value kept only when its key is
 * asked a second time (one-off keys, such as new text searches, are computed and let go), or
 * at once when it was kept at the version before.
 */
import { describe, expect, it } from 'vitest'

import { VersionedCache, VersionedValue } from '../../src/db/freshness'
import { registry } from '../../src/platform/metrics'

/** A cache over a counting computation: how many times each key was computed. */
function counted(options: { keepOnSecondAsk?: boolean } = {}, maxEntries = 3) {
  const computed = new Map<string, number>()
  const cache = new VersionedCache<string>(`test_${Math.random().toString(36).slice(2)}`, maxEntries, Infinity, () => 1, options)
  const get = (version: string, key: string) =>
    cache.get(version, key, () => {
      computed.set(key, (computed.get(key) ?? 0) + 1)
      return `${key}@${version}`
    })
  return { get, computed }
}

describe('VersionedCache', () => {
  it('computes a key once per version, and again once the version moves', async () => {
    const { get, computed } = counted()
    expect(await get('v1', 'a')).toBe('a@v1')
    expect(await get('v1', 'a')).toBe('a@v1')
    expect(computed.get('a')).toBe(1)
    expect(await get('v2', 'a')).toBe('a@v2')
    expect(computed.get('a')).toBe(2)
  })

  it('evicts the least recently used key when full', async () => {
    const { get, computed } = counted({}, 2)
    await get('v', 'a')
    await get('v', 'b')
    await get('v', 'a') // a is now the most recent
    await get('v', 'c') // evicts b
    await get('v', 'a')
    await get('v', 'b')
    expect(computed.get('a')).toBe(1)
    expect(computed.get('b')).toBe(2)
  })

  it('with keepOnSecondAsk, keeps a value from its key\'s second ask: computed twice, then served', async () => {
    const { get, computed } = counted({ keepOnSecondAsk: true })
    for (let i = 0; i < 5; i++) expect(await get('v', 'repeated')).toBe('repeated@v')
    expect(computed.get('repeated')).toBe(2)
  })

  it('with keepOnSecondAsk, a stream of one-off keys never pushes out a kept value', async () => {
    const { get, computed } = counted({ keepOnSecondAsk: true }, 2)
    await get('v', 'feed')
    await get('v', 'feed')
    for (let i = 0; i < 100; i++) await get('v', `once-${i}`)
    await get('v', 'feed')
    expect(computed.get('feed')).toBe(2)
  })

  it('with keepOnSecondAsk, a moved version forgets the keys asked once', async () => {
    const { get, computed } = counted({ keepOnSecondAsk: true })
    await get('v1', 'k')
    await get('v2', 'k') // first ask at v2: not kept
    await get('v2', 'k') // second: kept
    await get('v2', 'k')
    expect(computed.get('k')).toBe(3)
  })

  it('with keepOnSecondAsk, a key kept at one version is kept from its first ask at the next (a repeated search, after a write)', async () => {
    const { get, computed } = counted({ keepOnSecondAsk: true })
    await get('v1', 'feed')
    await get('v1', 'feed') // kept at v1
    await get('v1', 'once') // asked once at v1, never kept
    expect(await get('v2', 'feed')).toBe('feed@v2') // kept at once
    expect(await get('v2', 'feed')).toBe('feed@v2')
    expect(computed.get('feed')).toBe(3)
    await get('v2', 'once') // not repeated at v1: asked once again
    await get('v2', 'once')
    expect(computed.get('once')).toBe(3)
  })
})

describe('VersionedCache with a freshness check', () => {
  it('computes a hit again when the check refuses it, and keeps the new value', async () => {
    const computed: string[] = []
    const cache = new VersionedCache<{ v: number }>(`test_fresh_${Math.random().toString(36).slice(2)}`, 3, Infinity, () => 1, { keepOnSecondAsk: true })
    let n = 0
    const compute = () => {
      computed.push('k')
      return { v: ++n }
    }
    let stale = -1
    const fresh = (x: { v: number }) => x.v !== stale
    await cache.get('v', 'k', compute, fresh)
    expect((await cache.get('v', 'k', compute, fresh)).v).toBe(2) // second ask: kept
    expect((await cache.get('v', 'k', compute, fresh)).v).toBe(2)
    stale = 2
    expect((await cache.get('v', 'k', compute, fresh)).v).toBe(3) // refused: computed again and kept at once
    expect((await cache.get('v', 'k', compute, fresh)).v).toBe(3)
    expect(computed).toHaveLength(3)
  })
})

describe('CACHES_OFF (a cache switched off to measure what it earns)', () => {
  /** Caches made while CACHES_OFF names `off`, as a server started with it makes them. */
  function madeWith<T>(off: string, make: () => T): T {
    const before = process.env.CACHES_OFF
    process.env.CACHES_OFF = off
    try {
      return make()
    } finally {
      if (before === undefined) delete process.env.CACHES_OFF
      else process.env.CACHES_OFF = before
    }
  }
  const lookups = async (cache: string) => {
    const values = (await registry.getSingleMetric('cache_lookups_total')!.get()).values
    const of = (result: string) => values.find((v) => v.labels.cache === cache && v.labels.result === result)?.value ?? 0
    return { hits: of('hit'), misses: of('miss') }
  }

  it('a named cache and its moderators\' copy compute every ask, counted as misses; another name keeps its values', async () => {
    const name = `test_off_${Math.random().toString(36).slice(2)}`
    const [off, offCopy, on, value] = madeWith(`unrelated, ${name}`, () => [
      new VersionedCache<number>(name, 10),
      new VersionedCache<number>(`${name}_all`, 10),
      new VersionedCache<number>(`${name}_on`, 10),
      new VersionedValue<number>(name),
    ])
    let computed = 0
    const compute = () => ++computed
    for (const cache of [off, offCopy, on]) {
      await cache.get('v', 'k', compute)
      await cache.get('v', 'k', compute)
    }
    expect(computed).toBe(5) // twice each switched off, once the one on
    expect(await value.get('v', async () => 10)).toBe(10)
    expect(await value.get('v', async () => 11)).toBe(11)
    expect(await lookups(name)).toEqual({ hits: 0, misses: 4 })
    expect(await lookups(`${name}_all`)).toEqual({ hits: 0, misses: 2 })
    expect(await lookups(`${name}_on`)).toEqual({ hits: 1, misses: 1 })
  })
})
