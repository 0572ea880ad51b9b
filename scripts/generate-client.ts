/**
 * Writes client/src/schema.d.ts: the TypeScript types of the OpenAPI document (the same
 * document /openapi.json serves), by openapi-typescript. test/client/schema.test.ts fails
 * when the file is stale: run `npm run generate:client` after changing a route.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { clientSchemaSource } from './clientSchema'

const target = join(import.meta.dirname, '..', 'client', 'src', 'schema.d.ts')
writeFileSync(target, await clientSchemaSource())
process.stdout.write(`wrote ${target}\n`)
