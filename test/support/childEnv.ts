/**
 * What every process the suite starts with an environment of its own begins from: only what any
 * process needs (PATH, HOME) and the suite's compiled-code cache (vitest.config.ts), so a child
 * loads Payload's modules without compiling them again. Nothing of the suite's own (its database,
 * secrets, engine) unless the caller adds it.
 */
import os from 'node:os'

export function childEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
  }
}
