/**
 * The word-reading thread (./wordReads): its own connection to the database, the corpus of
 * the latest data version it was sent, and one word read at a time, each in a transaction
 * that first checks that the data is still at that version.
 */
import Database from 'libsql'
import { parentPort, workerData } from 'node:worker_threads'

import type { WordCorpus } from './searchCorpus'
import { ownReader } from './sqlReader'
import { VERSION_SQL } from './versions'
import { readWordScores } from './wordReading'
import type { WordReply, WordRequest } from './wordReads'

const { file } = workerData as { file: string }
const db = new Database(file)
db.exec('PRAGMA busy_timeout = 5000')
// A small page cache: the thread reads each word's index pages once.
db.exec('PRAGMA cache_size = -4096')
db.exec('PRAGMA mmap_size = 0')
const reader = ownReader(db)
let current: { version: string; corpus: WordCorpus } | undefined

const versionNow = () => String(reader.get(VERSION_SQL, ['content'])?.[0] ?? '')

parentPort!.on('message', (request: WordRequest) => {
  if (request.kind === 'corpus') {
    current = { version: request.version, corpus: request.corpus }
    return
  }
  const { id, version, word } = request
  let reply: WordReply
  try {
    reader.exec('BEGIN')
    try {
      if (current?.version !== version || versionNow() !== version) {
        reply = { id, stale: true }
      } else {
        reply = { id, scores: readWordScores(reader, current.corpus, word) }
      }
    } finally {
      reader.exec('COMMIT')
    }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  const transfer = 'scores' in reply ? [reply.scores.gaps.buffer, reply.scores.scores.buffer, reply.scores.sizes.buffer] : []
  parentPort!.postMessage(reply, transfer as ArrayBuffer[])
})
