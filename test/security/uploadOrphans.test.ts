/**
 * A failed upload leaves no file behind (src/services/storedUploads): Payload writes the file before
 * the document, so a save failing after that (here: the database refusing the insert once), or a
 * Local API create retried after a WriteConflict, left a file no document names. Through the
 * service's own creates (createUpload, the thumbnail job's) and through Payload REST (the admin
 * panel's uploads), on the real database and the real disk.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createUpload } from '../../src/services/storedUploads'
import { ADMIN, consoleCookie } from '../auth/helpers'
import { testApp } from '../support/app'
import { startHttpServer, type RunningServer } from '../support/httpServer'

const MEDIA_DIR = path.resolve(process.env.MEDIA_DIR!)
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex')

let server: RunningServer
let payload: Payload
let cookie: string

beforeAll(async () => {
  server = await startHttpServer()
  const app = await testApp()
  payload = app.payload
  cookie = await consoleCookie(app, ADMIN.email, ADMIN.password)
}, 120_000)
afterAll(() => server?.close())

const filesNamed = (prefix: string) => (existsSync(MEDIA_DIR) ? readdirSync(MEDIA_DIR) : []).filter((f) => f.startsWith(prefix))
const mediaNamed = async (prefix: string) =>
  (await payload.find({ collection: 'media', where: { filename: { like: prefix } }, overrideAccess: true, limit: 100 })).totalDocs

/** The database refuses the next media insert once, after Payload has written the file. */
function failNextMediaInsert(): void {
  const db = payload.db as unknown as { create: (args: { collection: string }) => Promise<unknown> }
  const create = db.create.bind(db)
  let armed = true
  db.create = async (args) => {
    if (armed && args.collection === 'media') {
      armed = false
      throw new Error('insert refused (injected)')
    }
    return create(args)
  }
}

describe('an upload whose save fails', () => {
  it("the service's create (createUpload): the failed attempt's file is removed; the next one stores one file and one document", async () => {
    const name = `orphan-local-${Date.now()}.png`
    const stem = name.replace(/\.png$/, '')
    failNextMediaInsert()
    const file = { data: PNG, mimetype: 'image/png', name, size: PNG.length }
    await expect(createUpload(payload, { data: { alt: 'x' }, file })).rejects.toThrow(/injected/)
    expect(filesNamed(stem)).toEqual([])
    expect(await mediaNamed(stem)).toBe(0)
    const saved = await createUpload(payload, { data: { alt: 'x' }, file })
    expect(filesNamed(stem)).toEqual([saved.filename])
    expect(await mediaNamed(stem)).toBe(1)
  })

  it("Payload REST (the admin panel's upload): the error answered, the file removed", async () => {
    const name = `orphan-rest-${Date.now()}.png`
    failNextMediaInsert()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), name)
    form.append('_payload', JSON.stringify({ alt: 'an upload' }))
    const res = await fetch(`${server.origin}/api/media`, { method: 'POST', headers: { cookie, origin: server.origin }, body: form })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(filesNamed(name.replace(/\.png$/, ''))).toEqual([])
  })

  it('a file a document names is never removed, whatever a failed save noted', async () => {
    const { removeUnsavedUpload } = await import('../../src/services/storedUploads')
    const name = `kept-${Date.now()}.png`
    const saved = await createUpload(payload, { data: { alt: 'x' }, file: { data: PNG, mimetype: 'image/png', name, size: PNG.length } })
    expect(await removeUnsavedUpload(payload, { storedUpload: saved.filename })).toBe(false)
    expect(filesNamed(name.replace(/\.png$/, ''))).toEqual([saved.filename])
    // A name with a path in it is never taken as a file here.
    expect(await removeUnsavedUpload(payload, { storedUpload: '../package.json' })).toBe(false)
  })
})
