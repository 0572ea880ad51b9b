import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from 'next/constants.js'
import { describe, expect, it } from 'vitest'

type Config = { experimental?: Record<string, unknown>; poweredByHeader?: boolean }

describe('next.config.mjs: what each phase is given', () => {
  it("keeps Payload's development-only experiment off the build and the production server, so a first build prints no red ⨯", async () => {
    const configFor = (await import('../next.config.mjs')).default as (phase: string) => Config
    // Payload's withPayload sets turbopackServerFastRefresh: false (its hot reload breaks with it).
    // When Payload stops setting it, this line fails and the deletion in next.config.mjs can go.
    expect(configFor(PHASE_DEVELOPMENT_SERVER).experimental).toMatchObject({ turbopackServerFastRefresh: false, authInterrupts: true })
    for (const phase of [PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER]) {
      const config = configFor(phase)
      expect(config.experimental, phase).not.toHaveProperty('turbopackServerFastRefresh')
      expect(config.experimental, phase).toMatchObject({ authInterrupts: true })
      expect(config.poweredByHeader, phase).toBe(false)
    }
  })
})
