/**
 * Why was this answer served? (issue 54.3) Every cache lookup, in every layer (each cache counts
 * its hits and misses through ./metrics' cacheCounter), is also noted in the request's trace while
 * tracing is on, with the version it was looked up at. The API's wrapper (src/edge/wrap) writes the
 * trace as one debug line beside `request.completed`: `request.caches`, the lookups in order. One
 * place to look, whichever of the caches answered. On when the log level is debug or trace;
 * otherwise a lookup pays one boolean test.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

import { getConfig } from './config'

export type CacheLookup = { cache: string; result: 'hit' | 'miss'; version?: string }

/** Lookups kept per request: a request that makes more is cut (its trace says so). */
const MAX_TRACED = 100

const traces = new AsyncLocalStorage<CacheLookup[]>()
let enabled: boolean | undefined

/** Whether lookups are traced (the log level is debug or trace). */
export function cacheTracing(): boolean {
  enabled ??= ['debug', 'trace'].includes(getConfig().logLevel)
  return enabled
}

/** Runs `work` with a trace of its own; the lookups it made (and those of what it awaited) are in `lookups`. */
export function traced<T>(lookups: CacheLookup[], work: () => Promise<T>): Promise<T> {
  return traces.run(lookups, work)
}

/** Notes one lookup in the current request's trace, if any. */
export function noteLookup(cache: string, result: CacheLookup['result'], version: string | number | undefined): void {
  if (!enabled) return
  const trace = traces.getStore()
  if (trace === undefined || trace.length > MAX_TRACED) return
  trace.push(trace.length === MAX_TRACED ? { cache: '(more)', result } : version === undefined ? { cache, result } : { cache, result, version: String(version) })
}
