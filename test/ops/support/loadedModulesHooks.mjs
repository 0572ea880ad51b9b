/** The loader-thread half of ./loadedModules.mjs: appends each resolved ES module URL and its importer. */
import { appendFileSync } from 'node:fs'

let file

export function initialize(data) {
  file = data.file
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  appendFileSync(file, `${resolved.url}\t${context.parentURL ?? ''}\n`)
  return resolved
}
