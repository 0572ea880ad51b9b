/**
 * The server's package-import hook (src/platform/packageImports.ts) answers a relative import
 * inside an installed package exactly as Node would (URL and format), and leaves every other
 * import to Node: over everything the server loads, each of its answers is compared with Node's;
 * on a made-up node_modules, the cases it must pass on. The start it saves is measured in
 * docs/testing.md (and the server start's figure in docs/benchmarks.md).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

import { packageImportHooks } from '../src/platform/packageImports'
import { childEnv } from './support/childEnv'

describe('package imports resolved by the hook', () => {
  it("answers as Node does for every relative import of what the server loads (Payload's config, Next, the SQLite adapter)", () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support/packageImportsCheck.ts')], {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...childEnv(), NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 120_000,
    })
    const stats = JSON.parse(out) as { answered: number; passed: number; mismatches: string[] }
    expect(stats.mismatches).toEqual([])
    // drizzle-orm's, Payload's and date-fns's modules: thousands, each without a package.json parse.
    expect(stats.answered).toBeGreaterThan(1000)
  }, 150_000)

  describe('on a made-up node_modules', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'package-imports-'))
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      writeFileSync(path.join(root, file), text)
    }
    write('node_modules/esm/package.json', JSON.stringify({ name: 'esm', type: 'module', exports: { '.': './index.js' } }))
    write('node_modules/esm/index.js', '')
    write('node_modules/esm/lib/a.js', '')
    write('node_modules/esm/lib/b.mjs', '')
    write('node_modules/esm/legacy/package.json', JSON.stringify({ type: 'commonjs' }))
    write('node_modules/esm/legacy/c.js', '')
    write('node_modules/cjs/package.json', JSON.stringify({ name: 'cjs' }))
    write('node_modules/cjs/index.js', '')
    write('node_modules/cjs/d.mjs', '')
    write('node_modules/broken/package.json', '{ "type": "module", ')
    write('node_modules/broken/e.js', '')
    write('src/own.js', '')
    mkdirSync(path.join(root, 'node_modules/esm/dir.js'))
    symlinkSync(path.join(root, 'node_modules/esm/lib/a.js'), path.join(root, 'node_modules/esm/linked.js'))

    const url = (file: string) => pathToFileURL(path.join(root, file)).href
    const NODE = { url: 'node:answered', format: 'node' }
    const resolve = (specifier: string, from: string, conditions = ['node', 'import']) =>
      packageImportHooks().resolve(specifier, { conditions, parentURL: url(from) }, () => NODE)

    it('a .js in a "type": "module" package, a .mjs in any: the joined URL, format module', () => {
      expect(resolve('./lib/a.js', 'node_modules/esm/index.js')).toEqual({ url: url('node_modules/esm/lib/a.js'), format: 'module', shortCircuit: true })
      expect(resolve('../index.js', 'node_modules/esm/lib/a.js')).toEqual({ url: url('node_modules/esm/index.js'), format: 'module', shortCircuit: true })
      expect(resolve('./d.mjs', 'node_modules/cjs/index.js')).toEqual({ url: url('node_modules/cjs/d.mjs'), format: 'module', shortCircuit: true })
    })

    it('everything else goes to Node', () => {
      const cases: [string, string, string[]?][] = [
        ['./c.js', 'node_modules/esm/legacy/package.json'], // a nested CommonJS scope
        ['./index.js', 'node_modules/cjs/d.mjs'], // a package without a type
        ['./e.js', 'node_modules/broken/package.json'], // a package.json Node reports as invalid
        ['./missing.js', 'node_modules/esm/index.js'],
        ['./dir.js', 'node_modules/esm/index.js'], // a folder
        ['./linked.js', 'node_modules/esm/index.js'], // a symlink (--preserve-symlinks decides)
        ['./lib/a', 'node_modules/esm/index.js'], // no extension
        ['./lib/%61.js', 'node_modules/esm/index.js'], // encoded
        ['./lib/a.js?x', 'node_modules/esm/index.js'],
        ['esm', 'node_modules/cjs/index.js'], // bare
        ['./own.js', 'src/own.js'], // outside node_modules
        ['./lib/a.js', 'node_modules/esm/index.js', ['node', 'require']], // require()
      ]
      for (const [specifier, from, conditions] of cases) expect(resolve(specifier, from, conditions), `${specifier} from ${from}`).toBe(NODE)
    })
  })
})
