/**
 * No dead code: `npm run lint:dead` (knip, knip.json) fails on an export nothing imports, a file
 * nothing reaches, a dependency nothing uses or one used without being declared. Entry points
 * are the server, the Next app's files, scripts, benches, tests and the processes tests spawn;
 * an export used only inside its own file is not dead (knip's ignoreExportsUsedInFile).
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const knip = path.join(root, 'node_modules', '.bin', 'knip')

describe('dead code', () => {
  it('the code base has none (npm run lint:dead exits 0)', () => {
    const run = spawnSync('npm', ['run', '--silent', 'lint:dead'], { cwd: root, encoding: 'utf8', timeout: 180_000 })
    expect(run.status, `dead code (knip.json):\n${run.stdout}\n${run.stderr}`).toBe(0)
  })

  it('the check catches an unused export, an unreached file and an undeclared dependency', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dead-code-'))
    copyFileSync(path.join(root, 'knip.json'), path.join(dir, 'knip.json'))
    const files: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'probe', version: '1.0.0', private: true, type: 'module', dependencies: {} }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
      'server.ts': "import { used } from './src/used'\nconsole.log(used)\n",
      'src/used.ts': "import { z } from 'zod'\nexport const used = z.string()\nexport const neverImported = 1\n",
      'src/orphan.ts': 'export const orphan = 2\n',
    }
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      writeFileSync(path.join(dir, file), text)
    }
    const run = spawnSync(knip, ['--no-progress', '--directory', dir], { cwd: dir, encoding: 'utf8', timeout: 120_000 })
    expect(run.status).not.toBe(0)
    expect(run.stdout).toMatch(/Unused files[\s\S]*src\/orphan\.ts/)
    expect(run.stdout).toMatch(/Unused exports[\s\S]*neverImported/)
    expect(run.stdout).toMatch(/Unlisted dependencies[\s\S]*zod/)
  })
})
