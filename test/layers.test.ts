/**
 * The declared layers (.dependency-cruiser.cjs) hold for the whole code base, and the rules
 * catch each kind of crossing: run through `npm run lint:layers`, the same command a
 * developer runs, so CI enforces exactly what docs/architecture.md describes.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise')

type Violation = { from: string; to: string; rule: { name: string } }

describe('layers', () => {
  it('the code base keeps its declared layers (npm run lint:layers exits 0)', () => {
    const run = spawnSync('npm', ['run', '--silent', 'lint:layers'], { cwd: root, encoding: 'utf8', timeout: 120_000 })
    expect(run.status, `layer violations (see .dependency-cruiser.cjs):\n${run.stdout}\n${run.stderr}`).toBe(0)
    expect(run.stdout).toContain('no dependency violations found')
  })

  it('each rule catches its crossing: services → HTTP, headers below the edge, src → entry points, db → services, platform → up, cycles', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'layers-'))
    copyFileSync(path.join(root, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'))
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
      'src/edge/route.ts': 'export type Reply = { data: unknown }\n',
      'src/services/list.ts': "import type { Reply } from '../edge/route'\nexport const list = (): Reply => ({ data: [] })\n",
      'src/services/readsHeaders.ts': "import type { IncomingMessage } from 'node:http'\nexport const ua = (r: IncomingMessage) => r.headers['user-agent']\n",
      'collections/Things.ts': "import type { Reply } from '../src/edge/route'\nexport const r: Reply = { data: null }\n",
      'src/services/usesEndpoint.ts': "import { handler } from '../../endpoints/health'\nexport const h = handler\n",
      'src/services/usesStartup.ts': "import { onStart } from '../startup/startup'\nexport const s = onStart\n",
      'src/startup/startup.ts': 'export const onStart = () => undefined\n',
      'src/db/store.ts': "import { list } from '../services/list'\nexport const store = list\n",
      'src/platform/config/index.ts': "import { store } from '../../db/store'\nexport const config = store\n",
      'src/platform/events/a.ts': "import { b } from './b'\nexport const a = () => b\n",
      'src/platform/events/b.ts': "import { a } from './a'\nexport const b = () => a\n",
      'endpoints/health.ts': "import { store } from '../src/db/store'\nexport const handler = store\n",
      'src/db/sqlite/search/index.ts': "export { rank } from './ranker'\n",
      'src/db/sqlite/search/ranker.ts': 'export const rank = () => 1\n',
      'src/db/sqlite/viaEntry.ts': "import { rank } from './search'\nexport const a = rank\n",
      'src/db/sqlite/pastEntry.ts': "import { rank } from './search/ranker'\nexport const b = rank\n",
      // From outside src/ too: a script or a bench enters a room by its index like anyone.
      'scripts/reachesIn.ts': "import { rank } from '../src/db/sqlite/search/ranker'\nexport const c = rank\n",
    }
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      writeFileSync(path.join(dir, file), text)
    }
    const run = spawnSync(depcruise, ['src', 'endpoints', 'collections', 'scripts', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.stderr).toBe('')
    const violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations
    // A cycle is reported once, from whichever of its modules the cruise reached first.
    const found = violations
      .map((v) => (v.rule.name === 'no-circular' ? `no-circular: ${path.dirname(v.from)}` : `${v.rule.name}: ${v.from} → ${v.to}`))
      .sort()
    expect(found).toEqual(
      [
        'services-not-to-http: src/services/list.ts → src/edge/route.ts',
        'edge-only-from-entry-points: src/services/list.ts → src/edge/route.ts',
        'edge-only-from-entry-points: collections/Things.ts → src/edge/route.ts',
        'no-http-below-the-edge: src/services/readsHeaders.ts → http',
        'services-not-to-http: src/services/usesEndpoint.ts → endpoints/health.ts',
        'src-not-to-entry-points: src/services/usesEndpoint.ts → endpoints/health.ts',
        'services-not-to-wiring: src/services/usesStartup.ts → src/startup/startup.ts',
        'db-not-up: src/db/store.ts → src/services/list.ts',
        'platform-not-up: src/platform/config/index.ts → src/db/store.ts',
        'routes-not-to-db: endpoints/health.ts → src/db/store.ts',
        'no-circular: src/platform/events',
        'rooms-through-their-entry: src/db/sqlite/pastEntry.ts → src/db/sqlite/search/ranker.ts',
        'rooms-through-their-entry: scripts/reachesIn.ts → src/db/sqlite/search/ranker.ts',
      ].sort(),
    )
  })

  it("Payload's hooks live beside their collections (collections/hooks/): nothing under src/ defines one", () => {
    const hookType = /\b(Collection|Global)\w*Hook\b|\bFieldHook\b/
    const offenders = readdirSync(path.join(root, 'src'), { recursive: true })
      .map(String)
      .filter((f) => /\.tsx?$/.test(f) && hookType.test(readFileSync(path.join(root, 'src', f), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('the known-violations baseline is empty: every layer crossing is fixed, none excused', () => {
    const known = JSON.parse(readFileSync(path.join(root, '.dependency-cruiser-known-violations.json'), 'utf8')) as Violation[]
    expect(known.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`), 'fix these crossings instead of adding them to the baseline').toEqual([])
  })
})
