/**
 * Where a search's unseen words are read: on a worker thread with its own connection, so the
 * event loop keeps answering other requests (a word in 15,000 of a million rows takes about
 * 2.5 ms to read and pack; a search of two new words would otherwise hold every request
 * behind it for 5 ms). The corpus goes to the thread once per data version, in shared memory.
 * The thread reads each word inside a transaction that first checks the data version: a word
 * read from newer data than its corpus is not used; it is read again here, in process. Where
 * no thread can run (a bundled copy of this module, a thread that failed), every word is read
 * in process.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

import { searchWordRead } from '../../metrics'
import type { Corpus, WordCorpus } from './searchCorpus'
import { serviceReader } from './sqlReader'
import { readWordScores } from './wordReading'
import type { WordScores } from './wordScores'

/** Asks the thread to read a word at a data version (its corpus sent before, once). */
export type WordRequest =
  | { kind: 'corpus'; version: string; corpus: WordCorpus }
  | { kind: 'word'; id: number; version: string; word: string }

/** The thread's answer: the scores, or why they cannot be used. */
export type WordReply = { id: number; scores: WordScores } | { id: number; stale: true } | { id: number; error: string }

/** The thread's entry: a plain module that registers tsx, then loads wordReadThread.ts. */
const THREAD_FILE = 'wordReadThread.mjs'

const open = new Set<WordReads>()

/** Stops every reader's thread (shutdown, or a test switching databases). */
export function closeWordReads(): void {
  for (const reads of open) reads.close()
}

export class WordReads {
  private worker: Worker | null | undefined
  private nextId = 0
  private corpusSent: string | undefined
  private readonly waiting = new Map<number, (reply: WordReply) => void>()

  constructor(
    private readonly file: string,
    private readonly useThread: boolean,
  ) {
    open.add(this)
  }

  /** The word's scores at `version`, whose corpus is `corpus`. */
  async read(corpus: Corpus, version: string, word: string): Promise<WordScores> {
    const worker = this.thread()
    if (worker) {
      const reply = await this.ask(worker, corpus, version, word)
      if ('scores' in reply) {
        searchWordRead('thread')
        return reply.scores
      }
    }
    searchWordRead('process')
    return readWordScores(serviceReader(this.file), corpus, word)
  }

  close(): void {
    open.delete(this)
    void this.worker?.terminate()
    this.worker = null
    for (const answer of this.waiting.values()) answer({ id: -1, error: 'closed' })
    this.waiting.clear()
  }

  private ask(worker: Worker, corpus: Corpus, version: string, word: string): Promise<WordReply> {
    if (this.corpusSent !== version) {
      const { rows, avgdl, byRow, longest } = corpus
      worker.postMessage({ kind: 'corpus', version, corpus: { rows, avgdl, byRow, longest } } satisfies WordRequest)
      this.corpusSent = version
    }
    const id = this.nextId++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      worker.postMessage({ kind: 'word', id, version, word } satisfies WordRequest)
    })
  }

  /** The thread, started on first use; null once it cannot be had. */
  private thread(): Worker | null {
    if (this.worker !== undefined) return this.worker
    const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), THREAD_FILE)
    if (!this.useThread || !existsSync(entry)) return (this.worker = null)
    const worker = new Worker(entry, { workerData: { file: this.file } })
    // The thread never keeps the process alive; a thread that fails leaves reads in process.
    worker.unref()
    worker.on('message', (reply: WordReply) => {
      const answer = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      answer?.(reply)
    })
    const fail = () => {
      this.worker = null
      for (const answer of this.waiting.values()) answer({ id: -1, error: 'thread stopped' })
      this.waiting.clear()
    }
    worker.on('error', fail)
    worker.on('exit', fail)
    this.worker = worker
    return worker
  }
}
