/**
 * Freshness across processes (SQLite): a write committed by another process is seen by this
 * one's next look of the change feed, which looks every POLL_MS on an interval timer
 * (src/db/sqlite/changeFeed.ts), and a write of this process at once. Held by order, not by a
 * clock: a real second process commits an UPDATE when told and says so; a timer of two poll
 * periods, started once the commit is reported, runs after the feed's next look (Node runs
 * timers in the order they fall due, however late a busy machine runs them), and by then this
 * process's content generation must have moved. The wall-clock figure (median and longest
 * delay) is `npm run bench`'s freshness row, reported there, not asserted here.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

import { beforeAll, describe, expect, it } from 'vitest'

import { getConfig } from '../src/platform/config'
import { generation } from '../src/db/engine'
import { sqliteFileOf } from '../src/db/sqlite/connection'
import { POLL_MS } from '../src/db/sqlite/changeFeed'
import { content } from './content/helpers'
import { testApp, type TestApp } from './support/app'

const sqlite = getConfig().database.engine === 'sqlite'
const root = path.resolve(import.meta.dirname, '..')

let app: TestApp

beforeAll(async () => {
  app = await testApp()
}, 120_000)

/** Another process that commits one UPDATE of the item each time `commit()` asks, and answers once it committed. */
function writerProcess(file: string, id: string) {
  const script = `
    const Database = require('libsql')
    const db = new Database(${JSON.stringify(file)})
    db.exec('PRAGMA busy_timeout = 5000')
    const update = db.prepare('UPDATE content SET title = ? WHERE id = ?')
    let n = 0
    process.stdin.on('data', (chunk) => {
      for (const _ of String(chunk).trim().split('\\n')) update.run('Seen ' + n++, ${JSON.stringify(id)}), process.stdout.write('committed\\n')
    })
    process.stdin.on('end', () => db.close())
    process.stdout.write('ready\\n')
  `
  const child = spawn(process.execPath, ['-e', script], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] })
  let waiting: (() => void) | undefined
  child.stdout.on('data', () => {
    const done = waiting
    waiting = undefined
    done?.()
  })
  const next = () => new Promise<void>((resolve) => (waiting = resolve))
  return {
    ready: next(),
    /** Resolves once the other process has committed (its answer follows its commit). */
    commit: () => {
      const committed = next()
      child.stdin.write('commit\n')
      return committed
    },
    end: () => new Promise<number | null>((resolve) => (child.once('exit', resolve), child.stdin.end())),
  }
}

describe.runIf(sqlite)("freshness across processes (SQLite: counters read after each write and every POLL_MS; MongoDB's is its change stream's delivery, docs/mongodb.md)", () => {
  it("another process's commit is seen by the change feed's next look, each of 12 times", async () => {
    const item = await content(app.payload, { title: 'Watched item' })
    const writer = writerProcess(path.resolve(root, sqliteFileOf(getConfig().database.uri)), item.id)
    await writer.ready
    const missed: number[] = []
    for (let i = 0; i < 12; i++) {
      const before = generation(app.payload, 'content')
      await writer.commit()
      // Falls due after the feed's next look, which is at most POLL_MS away from now.
      await sleep(2 * POLL_MS)
      if (generation(app.payload, 'content') === before) missed.push(i)
    }
    expect(await writer.end()).toBe(0)
    expect(missed, 'commits not seen by the next look').toEqual([])
  }, 60_000)

  it("this process's own write is seen at once: no wait for the poll", async () => {
    const item = await content(app.payload, { title: 'Own write' })
    const before = generation(app.payload, 'content')
    await app.payload.update({ collection: 'content', id: item.id, data: { title: 'Own write, edited' }, overrideAccess: true })
    expect(generation(app.payload, 'content')).not.toBe(before)
  })
})
