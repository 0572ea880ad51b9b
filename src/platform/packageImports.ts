/**
 * Relative imports inside installed packages, resolved without Node's package.json parse per
 * module. To learn a module's format, Node 24's resolver reads the nearest package.json for every
 * module it resolves, and its reader (`package_json_reader`'s `read` spreads lazily parsed fields)
 * parses that package's `exports` from JSON again on each read: drizzle-orm's 177 KB map is parsed
 * for each of the ~250 of its files a server loads. With the hook a server's start to `/ready`
 * takes less CPU (docs/operations.md; docs/benchmarks.md, *Measurements behind the code*).
 *
 * The hook answers only the case where resolving is a path join: an `import` of `./x.js`,
 * `../x.mjs` from a file under node_modules, naming a file that exists, in a package whose
 * package.json says `"type": "module"` (or a `.mjs` file), reached through no symlink. The answer
 * is Node's own: the joined URL, format `module`; each package.json is read once. Anything else
 * (bare specifiers, `require`, no extension, an escape, a symlink, a CommonJS scope, an unreadable
 * package.json) goes to Node unchanged. test/packageImports.test.ts compares every
 * answer with Node's over the packages the server loads.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs'
import * as nodeModule from 'node:module'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** `./x.js`, `../../x.mjs`: a relative path with an extension, nothing encoded, no query or fragment. */
const PLAIN_RELATIVE = /^\.\.?\/[^%\\?#]*\.m?js$/

type Scope = 'module' | 'other'

// Node 24's synchronous module hooks (module.registerHooks); the installed @types/node (20) predates them.
type ResolveContext = { conditions: string[]; parentURL?: string; importAttributes?: Record<string, string> }
type Resolved = { url: string; format?: string | null; shortCircuit?: boolean }
type ResolveHook = (specifier: string, context: ResolveContext, nextResolve: (specifier: string, context?: ResolveContext) => Resolved) => Resolved
const registerHooks = (nodeModule as unknown as { registerHooks?: (hooks: { resolve: ResolveHook }) => unknown }).registerHooks

export type PackageImportStats = { answered: number; passed: number; mismatches: string[] }

/** The hooks (with `verify`, each answer is checked against Node's own and differences are recorded). */
export function packageImportHooks(verify = false): { resolve: ResolveHook; stats: PackageImportStats } {
  const scopeOfDir = new Map<string, Scope>()
  const stats: PackageImportStats = { answered: 0, passed: 0, mismatches: [] }

  /** The type of the nearest package.json, as Node's getPackageScopeConfig finds it (it stops at a node_modules folder). */
  function scopeOf(dir: string): Scope {
    const walked: string[] = []
    let scope: Scope = 'other'
    for (let d = dir; ; ) {
      const known = scopeOfDir.get(d)
      if (known) {
        scope = known
        break
      }
      walked.push(d)
      if (path.basename(d) === 'node_modules') break
      let text: string | undefined
      try {
        text = readFileSync(path.join(d, 'package.json'), 'utf8')
      } catch {
        /* no package.json here: the next folder up */
      }
      if (text !== undefined) {
        try {
          scope = (JSON.parse(text) as { type?: unknown }).type === 'module' ? 'module' : 'other'
        } catch {
          /* Node reports an invalid package.json itself */
        }
        break
      }
      const up = path.dirname(d)
      if (up === d) break
      d = up
    }
    for (const d of walked) scopeOfDir.set(d, scope)
    return scope
  }

  function answer(specifier: string, context: ResolveContext): Resolved | undefined {
    const parent = context.parentURL
    if (!parent?.startsWith('file:') || !parent.includes('/node_modules/') || !PLAIN_RELATIVE.test(specifier)) return undefined
    if (!context.conditions.includes('import')) return undefined
    const file = fileURLToPath(new URL(specifier, parent))
    let isFile = false
    try {
      isFile = statSync(file).isFile()
    } catch {
      /* missing: Node's own error */
    }
    if (!isFile) return undefined
    // Through a symlink, Node's answer depends on --preserve-symlinks: its own to give.
    if (realpathSync(file) !== file) return undefined
    if (!file.endsWith('.mjs') && scopeOf(path.dirname(file)) !== 'module') return undefined
    return { url: pathToFileURL(file).href, format: 'module', shortCircuit: true }
  }

  return {
    stats,
    resolve(specifier, context, nextResolve) {
      const ours = answer(specifier, context)
      if (!ours) {
        stats.passed++
        return nextResolve(specifier, context)
      }
      stats.answered++
      if (verify) {
        const node = nextResolve(specifier, context)
        if (node.url !== ours.url || node.format !== ours.format) {
          stats.mismatches.push(`${specifier} from ${context.parentURL}: ours ${ours.url} (${ours.format}), Node's ${node.url} (${node.format})`)
        }
      }
      return ours
    },
  }
}

/** Once a process: this module may be evaluated more than once in one (a test worker re-evaluates its modules per file). */
const REGISTERED = Symbol.for('curation.packageImportHooks')

/** Registers the hooks for this process's later imports (a no-op on a Node without synchronous hooks). */
export function resolvePackageImportsQuickly(): void {
  const shared = globalThis as { [REGISTERED]?: true }
  if (shared[REGISTERED] || typeof registerHooks !== 'function') return
  shared[REGISTERED] = true
  registerHooks({ resolve: packageImportHooks().resolve })
}
