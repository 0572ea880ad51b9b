/** Upgrading a SQLite database from the build that ran follow-ups as Payload jobs. */
import Database from 'libsql'
import { describe, expect, it } from 'vitest'

import { getConfig } from '../../src/config'
import { listFollowUps } from '../../src/db/engine'
import { sqliteFileOf } from '../../src/db/sqlite/connection'
import { retirePayloadJobsSqlite } from '../../src/db/sqlite/retiredPayloadJobs'
import { stopFollowUps } from '../../src/jobs/followUps'
import { testApp } from '../support/app'

const sqlite = !process.env.DATABASE_URI?.startsWith('mongodb')

describe.runIf(sqlite)('retired Payload jobs tables', () => {
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

    expect(await retirePayloadJobsSqlite(app.payload)).toBe(2)
    expect((await listFollowUps(app.payload, 'c-open')).map((r) => [r.kind, r.status]).sort()).toEqual([
      ['notify.approved', 'queued'],
      ['thumbnail', 'queued'],
    ])
    expect(await listFollowUps(app.payload, 'c-done')).toEqual([])
    expect(await listFollowUps(app.payload, 'c-gave-up')).toEqual([])
    expect(db.prepare('SELECT count(*) AS n FROM payload_jobs').get()).toEqual({ n: 0 })
    expect(db.prepare('SELECT count(*) AS n FROM payload_jobs_log').get()).toEqual({ n: 0 })
    // Again: nothing more to move, nothing doubled.
    expect(await retirePayloadJobsSqlite(app.payload)).toBe(0)
    expect(await listFollowUps(app.payload, 'c-open')).toHaveLength(2)
    db.close()
  })
})
