/** Upgrading a SQLite database from the build that ran follow-ups as Payload jobs. */
import Database from 'libsql'
import { describe, expect, it } from 'vitest'

import { getConfig } from '../../src/config'
import { engine } from '../../src/db/engine'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { dropDuplicateNotificationsSqlite } from '../../src/db/sqlite/notificationDuplicates'
import { retirePayloadJobsSqlite } from '../../src/db/sqlite/retiredPayloadJobs'
import { stopFollowUps } from '../../src/jobs/followUps'
import { testApp } from '../support/app'

const sqlite = !process.env.DATABASE_URI?.startsWith('mongodb')

describe.runIf(sqlite)('upgrading a SQLite database from the build that used Payload jobs', () => {
  it('move their unfinished follow-ups into the outbox and empty themselves, so schema sync can drop them', async () => {
    const app = await testApp()
    await stopFollowUps()
    const file = sqliteFileOf(getConfig().database.uri)
    const db = new Database(file)
    db.exec(`CREATE TABLE payload_jobs (id integer PRIMARY KEY, input text, completed_at text, has_error integer DEFAULT false, task_slug text)`)
    db.exec(`CREATE TABLE payload_jobs_log (id text PRIMARY KEY, _parent_id integer)`)
    const insert = db.prepare('INSERT INTO payload_jobs (input, completed_at, has_error, task_slug) VALUES (?, ?, ?, ?)')
    insert.run(JSON.stringify({ contentId: 'c-open' }), null, 0, 'contentThumbnail')
    insert.run(JSON.stringify({ contentId: 'c-open', kind: 'content.approved' }), null, 0, 'notifySubmitter')
    insert.run(JSON.stringify({ contentId: 'c-done' }), '2025-01-01T00:00:00Z', 0, 'contentThumbnail')
    insert.run(JSON.stringify({ contentId: 'c-gave-up', kind: 'content.rejected' }), null, 1, 'notifySubmitter')
    db.prepare('INSERT INTO payload_jobs_log (id, _parent_id) VALUES (?, ?)').run('l1', 1)

    expect(retirePayloadJobsSqlite(file)).toBe(2)
    expect((await engine().listFollowUps(app.payload, 'c-open')).map((r) => [r.kind, r.status]).sort()).toEqual([
      ['notify.approved', 'queued'],
      ['thumbnail', 'queued'],
    ])
    expect(await engine().listFollowUps(app.payload, 'c-done')).toEqual([])
    expect(await engine().listFollowUps(app.payload, 'c-gave-up')).toEqual([])
    expect(db.prepare('SELECT count(*) AS n FROM payload_jobs').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT count(*) AS n FROM payload_jobs_log').get()).toEqual({ n: 0 })
    // Again: nothing more to move, nothing doubled.
    expect(retirePayloadJobsSqlite(file)).toBe(0)
    expect(await engine().listFollowUps(app.payload, 'c-open')).toHaveLength(2)
    db.close()
  })

  it('drops the duplicate notifications double-run jobs left, so the unique (content, kind) index can be built', async () => {
    const app = await testApp()
    const file = sqliteFileOf(getConfig().database.uri)
    const db = new Database(file)
    db.exec('DROP INDEX content_kind_idx')
    const [user] = (await app.payload.find({ collection: 'users', limit: 1, overrideAccess: true })).docs
    const c1 = await app.payload.create({ collection: 'content', data: { slug: 'dup-1', title: 'D1', url: 'https://example.com/d1', status: 'approved', submittedBy: user!.id }, overrideAccess: true })
    const c2 = await app.payload.create({ collection: 'content', data: { slug: 'dup-2', title: 'D2', url: 'https://example.com/d2', status: 'rejected', submittedBy: user!.id }, overrideAccess: true })
    const insert = db.prepare('INSERT INTO notifications (id, user_id, kind, content_id, message) VALUES (?, ?, ?, ?, ?)')
    insert.run('n1', user!.id, 'content.approved', c1.id, 'first')
    insert.run('n2', user!.id, 'content.approved', c1.id, 'copy')
    insert.run('n3', user!.id, 'content.rejected', c2.id, 'other')
    insert.run('n4', user!.id, 'content.approved', c1.id, 'copy')
    expect(dropDuplicateNotificationsSqlite(file)).toBe(2)
    expect(db.prepare('SELECT id FROM notifications ORDER BY id').all()).toEqual([{ id: 'n1' }, { id: 'n3' }])
    db.exec('CREATE UNIQUE INDEX content_kind_idx ON notifications (content_id, kind)')
    // With the index in place the step leaves the table alone.
    expect(dropDuplicateNotificationsSqlite(file)).toBe(0)
    db.close()
  })
})
