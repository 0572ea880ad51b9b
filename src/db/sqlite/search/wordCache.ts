/**
 * Word scores kept across data versions (./textRanking). An entry holds a word's scores at one
 * corpus (its changeSeq, ./searchCorpus). Asked at a newer corpus, the entry follows it: when no
 * row changed in between held the word before or holds it now, only N and the mean length moved
 * and each score class is computed again (./wordReading rescoreWord, microseconds); otherwise
 * the changed rows are taken out and put back as they are now (patchWord: their weighted counts
 * from the step's tokenizing, a pass over the word's rows) instead of reading the word again
 * from the index (milliseconds for a common word at a million rows, on the event loop; docs/benchmarks.md, *Measurements behind the code*). A phrase
 * (several tokens, FTS5 ranks it) is read again. Kept from a word's second ask: most words of new searches are asked once, and every
 * kept word is memory the collector counts against its next full collection; a word asked once
 * keeps its scores a while in a small side cache (8 MB), so its second ask, often the first
 * search after a write, follows them instead of reading the word again.
 */
import { cacheCounter, type CacheCounter } from '../../../platform/metrics'
import type { Corpus } from './searchCorpus'
import type { RowTokens } from './wordReading'
import type { WordScores } from './wordScores'

/** The corpus steps remembered: a word asked less often than this many approvals is read again. */
const MAX_STEPS = 256
/** A step that changed more rows than this is not followed (tokenizing them would block): its words are read again. */
export const MAX_STEP_ROWS = 1_000

/**
 * The rows a step changed (ascending), those of them public before it (ascending: only they can
 * be in a word's cached rows), and per token the rows holding it now with their weighted count.
 */
type Step = { fromSeq: number; toSeq: number; rows: Int32Array; wasPublic: Int32Array; holders: RowTokens }
export type Changes = { rows: Int32Array; wasPublic: Int32Array; holders: RowTokens }

/** What changed between corpora, step by step, as far back as the steps are contiguous. */
export class CorpusSteps {
  private steps: Step[] = []

  /** A new latest corpus: followed from the last one (its step, with the tokens of the rows it changed), or read whole. */
  record(corpus: Corpus, tokensOf: (rows: Int32Array) => RowTokens): void {
    const last = this.steps.at(-1)
    const step = corpus.step
    if (!step || step.rows.length > MAX_STEP_ROWS || (last && last.toSeq !== step.fromSeq)) {
      this.steps = []
      return
    }
    this.steps.push({ fromSeq: step.fromSeq, toSeq: corpus.changeSeq, rows: step.rows, wasPublic: step.wasPublic, holders: tokensOf(step.rows) })
    if (this.steps.length > MAX_STEPS) this.steps.shift()
  }

  /** The rows changed from `fromSeq` to `toSeq` (ascending) and their tokens; undefined when the steps do not reach. */
  between(fromSeq: number, toSeq: number): Changes | undefined {
    const start = this.steps.findIndex((s) => s.fromSeq === fromSeq)
    const end = this.steps.findIndex((s) => s.toSeq === toSeq)
    if (start < 0 || end < start) return undefined
    const span = this.steps.slice(start, end + 1)
    if (span.length === 1) return span[0]!
    const rows = new Set<number>()
    // A row public at the span's start was public before the first step that changed it.
    const wasPublic = new Set<number>()
    const holders: RowTokens = new Map()
    for (const s of span) {
      for (const r of s.rows) rows.add(r)
      for (const r of s.wasPublic) wasPublic.add(r)
      // A row a later step changed again holds what that step read of it.
      for (const held of holders.values()) for (const r of s.rows) held.delete(r)
      for (const [token, held] of s.holders) {
        const into = holders.get(token) ?? new Map<number, number>()
        for (const [r, weighted] of held) into.set(r, weighted)
        holders.set(token, into)
      }
    }
    return { rows: Int32Array.from(rows).sort(), wasPublic: Int32Array.from(wasPublic).sort(), holders }
  }
}

type Kept = { seq: number; scores: WordScores; bytes: number }

/**
 * Words asked once whose scores stay a while (this many bytes at most, the oldest dropped): a
 * search asked again after a write is ranked again at once (its page cached in between), and
 * its words, followed from here, need not be read from the index again in that turn (the first
 * approval after a quiet spell read every hot search's words; docs/benchmarks.md, *Measurements behind the code*).
 */
const RECENT_BYTES = 8 * 1024 * 1024

/** At most maxEntries words holding at most maxBytes, least recent evicted. */
export class WordScoreCache {
  private readonly entries = new Map<string, Kept>()
  private readonly askedOnce = new Set<string>()
  private readonly recent = new Map<string, Kept>()
  private recentBytes = 0
  private bytes = 0
  private readonly lookups: CacheCounter
  private readonly follows: CacheCounter

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly weigh: (w: WordScores) => number,
  ) {
    this.lookups = cacheCounter('search_terms')
    // A hit here is a word followed to a new corpus, a miss one read again though it was kept.
    this.follows = cacheCounter('search_terms_followed')
  }

  /** The word's scores at `corpus`: kept, followed from a kept entry, or read. */
  get(word: string, corpus: Corpus, follow: (scores: WordScores, seq: number) => WordScores | undefined, read: () => WordScores): WordScores {
    if (this.lookups.off) {
      this.lookups.miss(corpus.changeSeq)
      return read()
    }
    const kept = this.entries.get(word)
    if (kept?.seq === corpus.changeSeq) {
      this.lookups.hit(corpus.changeSeq)
      this.entries.delete(word)
      this.entries.set(word, kept)
      return kept.scores
    }
    if (kept) {
      const scores = this.adopt(word, corpus, kept, follow)
      if (scores) return scores
    }
    const once = kept ? undefined : this.recent.get(word)
    if (once) {
      // Asked once before, its scores still here: brought to this corpus and kept.
      this.dropRecent(word, once)
      this.askedOnce.delete(word)
      const scores = this.adopt(word, corpus, once, follow)
      if (scores) return scores
    }
    this.lookups.miss(corpus.changeSeq)
    if (!kept && !once && !this.askedOnce.delete(word)) {
      // Remembered (a word, and its scores while they fit) for a while, so a second ask keeps the scores.
      if (this.askedOnce.size >= 4 * this.maxEntries) this.askedOnce.delete(this.askedOnce.values().next().value!)
      this.askedOnce.add(word)
      const scores = read()
      this.remember(word, corpus.changeSeq, scores)
      return scores
    }
    const scores = read()
    // A ranking still on an older corpus does not replace a newer entry.
    if (!kept || corpus.changeSeq >= kept.seq) this.keep(word, corpus.changeSeq, scores)
    return scores
  }

  /** An entry's scores at `corpus` (as they are, or followed to it), kept; undefined when they cannot follow. */
  private adopt(word: string, corpus: Corpus, entry: Kept, follow: (scores: WordScores, seq: number) => WordScores | undefined): WordScores | undefined {
    const scores = entry.seq === corpus.changeSeq ? entry.scores : follow(entry.scores, entry.seq)
    if (!scores) {
      this.follows.miss(corpus.changeSeq)
      return undefined
    }
    if (entry.seq !== corpus.changeSeq) this.follows.hit(corpus.changeSeq)
    this.lookups.hit(corpus.changeSeq)
    this.keep(word, corpus.changeSeq, scores)
    return scores
  }

  private remember(word: string, seq: number, scores: WordScores): void {
    const bytes = this.weigh(scores)
    if (bytes > RECENT_BYTES) return
    while (this.recentBytes + bytes > RECENT_BYTES) {
      const [oldest, entry] = this.recent.entries().next().value!
      this.dropRecent(oldest, entry)
    }
    this.recent.set(word, { seq, scores, bytes })
    this.recentBytes += bytes
  }

  private dropRecent(word: string, entry: Kept): void {
    this.recent.delete(word)
    this.recentBytes -= entry.bytes
  }

  private keep(word: string, seq: number, scores: WordScores): void {
    const old = this.entries.get(word)
    if (old) {
      this.entries.delete(word)
      this.bytes -= old.bytes
    }
    const bytes = this.weigh(scores)
    if (bytes > this.maxBytes) return
    while (this.entries.size >= this.maxEntries || this.bytes + bytes > this.maxBytes) {
      const [oldest, entry] = this.entries.entries().next().value!
      this.entries.delete(oldest)
      this.bytes -= entry.bytes
    }
    this.entries.set(word, { seq, scores, bytes })
    this.bytes += bytes
  }
}
