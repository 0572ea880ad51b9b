/**
 * Payload's document locks through its REST: a console user once could create locks in others'
 * names (so moderators and admins got 423 on documents nobody edited) and bulk-delete every
 * lock. Now a lock is only ever written in the writer's own name, and removed by its owner or
 * by a holder of every permission.
 */
import { beforeAll, describe, expect, it } from 'vitest'

import { content } from '../content/helpers'
import { ADMIN, consoleCookie, createUser } from '../auth/helpers'
import { testApp, type TestApp } from '../support/app'

let app: TestApp
let adminId: string
let adminCookie: string
let moderator: { id: string; cookie: string }

const LOCKS = '/payload-locked-documents'
const lockData = (docId: string, userId: string) => ({ document: { relationTo: 'content', value: docId }, user: { relationTo: 'users', value: userId } })
const lockCount = async () => (await app.payload.count({ collection: 'payload-locked-documents' })).totalDocs
const lockOf = (docId: string, userId: string) =>
  app.payload.db.create({ collection: 'payload-locked-documents', data: lockData(docId, userId) }) as Promise<{ id: string }>

beforeAll(async () => {
  app = await testApp()
  adminId = String((await app.payload.find({ collection: 'users', where: { email: { equals: ADMIN.email } } })).docs[0]!.id)
  adminCookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
  const role = await app.payload.create({ collection: 'roles', data: { name: 'lock-moderator', permissions: ['content.moderate'] }, overrideAccess: true })
  const user = await createUser(app, [String(role.id)])
  moderator = { id: String(user.id), cookie: await consoleCookie(app, user.email, user.password) }
})

describe('payload-locked-documents', () => {
  it("a lock in another user's name is refused; nothing is written", async () => {
    const item = await content(app.payload, {})
    const before = await lockCount()
    const forged = await app.request('POST', LOCKS, { body: lockData(item.id, adminId), headers: { cookie: moderator.cookie } })
    expect(forged.status, forged.text).toBe(403)
    expect(await lockCount()).toBe(before)
    const own = await app.request('POST', LOCKS, { body: lockData(item.id, moderator.id), headers: { cookie: moderator.cookie } })
    expect(own.status, own.text).toBe(201)
  })

  it("an existing lock cannot be handed to someone else (the owner forged)", async () => {
    const item = await content(app.payload, {})
    const lock = await lockOf(item.id, moderator.id)
    const res = await app.request('PATCH', `${LOCKS}/${lock.id}`, { body: { user: { relationTo: 'users', value: adminId } }, headers: { cookie: moderator.cookie } })
    expect(res.status, res.text).toBe(403)
    const stored = await app.payload.findByID({ collection: 'payload-locked-documents', id: lock.id, depth: 0 })
    expect(String((stored.user as { value: unknown }).value)).toBe(moderator.id)
  })

  it("others' locks survive a single and a bulk delete; one's own go", async () => {
    const [a, b] = [await content(app.payload, {}), await content(app.payload, {})]
    const admins = await lockOf(a.id, adminId)
    const mine = await lockOf(b.id, moderator.id)
    const single = await app.request('DELETE', `${LOCKS}/${admins.id}`, { headers: { cookie: moderator.cookie } })
    expect([403, 404]).toContain(single.status)
    const bulk = await app.request('DELETE', `${LOCKS}?where[id][exists]=true`, { headers: { cookie: moderator.cookie } })
    expect(bulk.status, bulk.text).toBe(200)
    const left = await app.payload.find({ collection: 'payload-locked-documents', where: { id: { in: [admins.id, mine.id] } }, depth: 0 })
    expect(left.docs.map((d) => String(d.id))).toEqual([String(admins.id)])
  })

  it('a holder of every permission removes anyone\'s lock', async () => {
    const item = await content(app.payload, {})
    const lock = await lockOf(item.id, moderator.id)
    const res = await app.request('DELETE', `${LOCKS}/${lock.id}`, { headers: { cookie: adminCookie } })
    expect(res.status, res.text).toBe(200)
    expect((await app.payload.count({ collection: 'payload-locked-documents', where: { id: { equals: lock.id } } })).totalDocs).toBe(0)
  })
})
