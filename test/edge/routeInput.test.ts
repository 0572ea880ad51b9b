/**
 * A route parses what it declares, once, at the edge (src/edge/wrap.ts): the handler receives
 * `input` (the query, body and path parameters as its schemas output them) and parses nothing
 * itself. Read from the sources, and seen on a route: a refused input never reaches its handler.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const root = path.resolve(import.meta.dirname, '../..')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : []
  })
}

/** Parses that are not a route's declared input, each with why. */
const ALLOWED: Record<string, string> = {
  // A malformed sign-in answers 401 like a wrong one (never which part was wrong): not a 400 of the declaration.
  'endpoints/consoleSession.ts': 'credentials.safeParse, firstUser parse (Payload form messages)',
  // The tree's form builds a document and validates it with the API's create schema for its kind.
  'endpoints/adminTaxonomy.ts': 'parseWith(createBodies[k], derived document)',
}

describe('a route parses what it declares', () => {
  it('no handler under endpoints/ parses its input (parseWith, parseQuery, parseSearch, .parse, .safeParse)', () => {
    const offenders: string[] = []
    for (const file of sources(path.join(root, 'endpoints'))) {
      const rel = path.relative(root, file)
      if (ALLOWED[rel]) continue
      const text = readFileSync(file, 'utf8')
      text.split('\n').forEach((line, i) => {
        if (/\b(parseWith|parseQuery|parseSearch)\(|\.safeParse\(|\.parse\((?!\s*\))/.test(line) && !/^\s*(\*|\/\/)/.test(line) && !/Date\.parse\(|JSON\.parse\(/.test(line)) {
          offenders.push(`${rel}:${i + 1}: ${line.trim()}`)
        }
      })
    }
    expect(offenders).toEqual([])
  })

  it('the edge refuses a declared body before the handler runs, and hands the handler the schema\'s output', async () => {
    const { defineRoute } = await import('../../src/edge/route')
    const { wrap } = await import('../../src/edge/wrap')
    let ran = 0
    const route = defineRoute({
      method: 'post',
      path: '/probe',
      request: { body: z.strictObject({ n: z.coerce.number().int() }), query: z.object({ q: z.string().max(3).optional() }) },
      responses: { data: z.object({ twice: z.number(), q: z.string().nullable() }) },
      handler: async ({ input }) => {
        ran += 1
        return { data: { twice: input.body.n * 2, q: input.query.q ?? null } }
      },
    })
    const handle = wrap(route, 'POST /probe')
    const request = (body: string, search = '') => ({
      payload: {} as never,
      method: 'POST',
      path: '/v1/probe',
      search,
      origin: 'http://localhost',
      headers: new Headers({ 'content-type': 'application/json' }),
      text: async () => body,
    })
    const ok = await handle(request('{"n":"21"}', 'q=ab'), {})
    expect(ok.status).toBe(200)
    expect(JSON.parse(String(ok.body)).data).toEqual({ twice: 42, q: 'ab' })
    expect(ran).toBe(1)
    for (const [body, search] of [['{"n":"x"}', ''], ['{"n":1,"extra":true}', ''], ['{"n":1}', 'q=toolong']]) {
      const refused = await handle(request(body!, search), {})
      expect(refused.status).toBe(400)
      expect(JSON.parse(String(refused.body)).error.code).toBe('validation.failed')
    }
    expect(ran).toBe(1)
  })
})
