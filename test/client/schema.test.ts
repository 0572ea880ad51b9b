/**
 * The client's generated types are the document's: client/src/schema.d.ts equals what
 * `npm run generate:client` writes now. And the client stays usable in a service worker:
 * no Node API, no import from outside client/.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

import { clientSchemaSource } from '../../scripts/clientSchema'

const SRC = join(import.meta.dirname, '..', '..', 'client', 'src')

it('client/src/schema.d.ts is up to date with the OpenAPI document (run `npm run generate:client`)', async () => {
  expect(readFileSync(join(SRC, 'schema.d.ts'), 'utf8')).toBe(await clientSchemaSource())
})

it('the client imports nothing but its own files: no Node API, fetch only', () => {
  for (const file of readdirSync(SRC)) {
    const text = readFileSync(join(SRC, file), 'utf8')
    for (const [, spec] of text.matchAll(/from '([^']+)'/g)) expect(spec, `${file} imports ${spec}`).toMatch(/^\.\/[A-Za-z]+$/)
    expect(text, file).not.toMatch(/\b(process|Buffer|require)\s*[.(]/)
  }
})
