import { describe, expect, it } from 'vitest'

import { bootstrap } from '../src/startup/bootstrap'
import { testApp } from './support/app'

describe('bootstrap', () => {
  it('is idempotent: two starts leave three roles, five facets and one admin', async () => {
    const app = await testApp()
    await bootstrap(app.payload)
    await bootstrap(app.payload)
    const roles = await app.payload.find({ collection: 'roles', limit: 10, overrideAccess: true })
    expect(roles.docs.map((r) => r.name).sort()).toEqual(['admin', 'member', 'moderator'])
    const admin = roles.docs.find((r) => r.name === 'admin')!
    expect(admin.permissions).toHaveLength(9)
    expect(String(admin.id)).toMatch(/^[0-9a-f]{24}$/)
    const users = await app.payload.find({ collection: 'users', overrideAccess: true })
    expect(users.totalDocs).toBe(1)
    expect(users.docs[0]!.email).toBe('admin@example.com')
    const facets = await app.payload.find({ collection: 'facets', overrideAccess: true, limit: 10 })
    expect(facets.docs.map((f) => f.key).sort()).toEqual(['format', 'level', 'source-type', 'topic', 'unclassified'])
  })
})
