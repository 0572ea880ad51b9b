/**
 * Every Payload Local API write the service makes goes through payloadWrite (src/db/payloadWrite.ts),
 * which runs it again on MongoDB's transient transaction errors (Payload itself aborts and
 * rethrows). A write given a `req` belongs to that request's transaction (a hook's nested
 * write), which its own caller retries, so it is exempt. Found by reading the source with
 * TypeScript's parser: a new call that forgets the helper fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(import.meta.dirname, '../..')
const SCANNED = ['src', 'endpoints', 'collections', 'access', 'app', 'scripts', 'server.ts', 'payload.config.ts']
/** The engines themselves (their transactions retry through the same helper inside). */
const EXEMPT_DIRS = ['src/db/']

const LOCAL_API_WRITES = new Set(['create', 'update', 'delete', 'updateGlobal', 'duplicate'])
const ADAPTER_WRITES = new Set(['create', 'updateOne', 'updateMany', 'deleteOne', 'deleteMany', 'upsert', 'updateGlobal', 'createGlobal'])
const HELPERS = new Set(['payloadWrite'])

function sourceFiles(entry: string): string[] {
  const full = path.join(ROOT, entry)
  if (!statSync(full, { throwIfNoEntry: false })) return []
  if (statSync(full).isFile()) return [entry]
  return readdirSync(full, { recursive: true })
    .map(String)
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(entry, f))
}

/** `payload.create(…)`, `req.payload.update(…)`, `payload.db.updateMany(…)`: the write's name, or undefined. */
function writeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression
  if (!ts.isPropertyAccessExpression(callee)) return undefined
  const method = callee.name.text
  const target = callee.expression
  const isPayload = (e: ts.Expression) => (ts.isIdentifier(e) && e.text === 'payload') || (ts.isPropertyAccessExpression(e) && e.name.text === 'payload')
  if (isPayload(target) && LOCAL_API_WRITES.has(method)) return method
  if (ts.isPropertyAccessExpression(target) && target.name.text === 'db' && isPayload(target.expression) && ADAPTER_WRITES.has(method)) return `db.${method}`
  return undefined
}

/** The call's options name a `req`: it runs inside that request's transaction. */
function inRequest(call: ts.CallExpression): boolean {
  const options = call.arguments[0]
  return (
    options !== undefined &&
    ts.isObjectLiteralExpression(options) &&
    options.properties.some((p) => (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name.getText() === 'req')
  )
}

/** Inside a function passed to payloadWrite(…). */
function underHelper(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.parent && ts.isCallExpression(n.parent)) {
      const callee = n.parent.expression
      if (ts.isIdentifier(callee) && HELPERS.has(callee.text) && n.parent.arguments.includes(n as ts.Expression)) return true
    }
  }
  return false
}

type Found = { where: string; write: string; wrapped: boolean; inRequest: boolean }

export function localApiWrites(file: string, text: string): Found[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: Found[] = []
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const write = writeName(node)
      if (write) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1
        found.push({ where: `${file}:${line}`, write, wrapped: underHelper(node), inRequest: inRequest(node) })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('Payload Local API writes', () => {
  const all = SCANNED.flatMap(sourceFiles)
    .filter((f) => !EXEMPT_DIRS.some((d) => f.startsWith(d)))
    .flatMap((f) => localApiWrites(f, readFileSync(path.join(ROOT, f), 'utf8')))

  it('every write outside a request goes through payloadWrite', () => {
    // The scan sees the service's writes (users, roles, tokens, bootstrap, seed, jobs, taxonomy, tags, content).
    expect(all.filter((w) => w.wrapped).length).toBeGreaterThan(20)
    expect(all.filter((w) => !w.wrapped && !w.inRequest).map((w) => `${w.where} payload.${w.write}`)).toEqual([])
  })

  it('the scan finds a bare write, a wrapped one and a nested one for what they are', () => {
    const text = `
      async function f(payload, req) {
        await payload.update({ collection: 'tags', id: 1, data: {} })
        await payloadWrite(() => payload.create({ collection: 'tags', data: {} }))
        await req.payload.db.updateOne({ collection: 'users', id: 1, data: {}, req })
        await payload.find({ collection: 'tags' })
      }`
    expect(localApiWrites('x.ts', text).map(({ write, wrapped, inRequest }) => ({ write, wrapped, inRequest }))).toEqual([
      { write: 'update', wrapped: false, inRequest: false },
      { write: 'create', wrapped: true, inRequest: false },
      { write: 'db.updateOne', wrapped: false, inRequest: true },
    ])
  })
})
