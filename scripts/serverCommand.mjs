// How production runs the server: the Node flags of `npm start` (package.json), the one place
// they are written. The demo, the browser tests and the cold-search bench run with them; the
// image's CMD repeats them (it runs without npm) and test/deploy.test.ts holds it to this.
import { readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * `npm start`'s flags for node (its heap limits, e.g. '--max-old-space-size=384'), as package.json writes them.
 * @param {string} [root] the project directory
 * @returns {string[]}
 */
export function serverNodeFlags(root = process.cwd()) {
  const start = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start
  const words = start.trim().split(/\s+/)
  const node = words.indexOf('node')
  if (node < 0 || words.at(-1) !== 'dist/server.js') throw new Error(`npm start is not "… node [flags] dist/server.js": ${start}`)
  return words.slice(node + 1, -1)
}
