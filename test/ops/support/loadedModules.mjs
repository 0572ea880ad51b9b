/**
 * Preload (`node --import ./loadedModules.mjs`) that records every module the process loads,
 * for test/ops/leanProcess.test.ts. LOADED_MODULES_DIR names a folder; the process writes
 * `<pid>.txt` there, one module a line (its resolved file or URL, a tab, its importer): ES modules as they resolve (a resolve hook in
 * Node's loader thread, appending as it goes) and CommonJS modules at exit (Module._load
 * and require.cache, which also hold the CommonJS packages an ES module imported).
 */
import { appendFileSync, writeFileSync } from 'node:fs'
import Module, { register } from 'node:module'
import path from 'node:path'

const dir = process.env.LOADED_MODULES_DIR
if (dir) {
  const file = path.join(dir, `${process.pid}.txt`)
  writeFileSync(file, '')
  register('./loadedModulesHooks.mjs', import.meta.url, { data: { file } })
  const loaded = new Map()
  const load = Module._load
  Module._load = function (request, parent, isMain) {
    const exported = load.apply(this, arguments)
    let resolved = String(request)
    try {
      resolved = Module._resolveFilename(request, parent, isMain)
    } catch {}
    if (!loaded.has(resolved)) loaded.set(resolved, parent?.filename ?? '')
    return exported
  }
  process.on('exit', () => {
    for (const key of Object.keys(Module._cache)) if (!loaded.has(key)) loaded.set(key, '')
    appendFileSync(file, [...loaded].map(([module, parent]) => `${module}\t${parent}`).join('\n') + '\n')
  })
}
