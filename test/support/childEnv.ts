/**
 * What every process the suite starts with an environment of its own begins from: only what any
 * process needs (PATH, HOME) and the suite's compiled-code cache (vitest.config.ts), so a child
 * loads Payload's modules without compiling them again. Nothing of the suite's own (its database,
 * secrets, engine) unless the caller adds it.
 */
import os from 'node:os'

/**
 * The test file's own database, as its setup named it (./setup): DATABASE_URI or the parts
 * (DATABASE_HOST, …) and, on MongoDB, its DB_NAME; without DB_NAME a child would use the URI's
 * default database, shared by every file and never dropped.
 */
export function databaseEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => (e[0].startsWith('DATABASE_') || e[0] === 'DB_NAME') && e[1] !== undefined))
}

export function childEnv(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    ...(process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {}),
  }
}
