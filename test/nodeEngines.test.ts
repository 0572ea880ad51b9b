import { readFileSync } from 'node:fs'
import path from 'node:path'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'))

type Locked = { engines?: { node?: string } | string[]; os?: string[]; cpu?: string[] }

/** Whether npm installs a locked package on this machine's kind (Linux x64, as CI and the image). */
const installedOnLinux = (entry: Locked) =>
  (!entry.os || entry.os.some((os) => os === 'linux' || (os.startsWith('!') && os !== '!linux'))) &&
  (!entry.cpu || entry.cpu.some((cpu) => cpu === 'x64' || (cpu.startsWith('!') && cpu !== '!x64')))

describe("package.json's engines", () => {
  it('promises only the Node versions every installed package accepts: npm ci warns of no EBADENGINE on any of them', () => {
    const ours = read('package.json').engines.node as string
    const lock = read('package-lock.json') as { packages: Record<string, Locked> }
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && installedOnLinux(entry) && !Array.isArray(entry.engines) && typeof entry.engines?.node === 'string')
      .filter(([, entry]) => !semver.subset(ours, (entry.engines as { node: string }).node))
      .map(([name, entry]) => `${name} wants ${(entry.engines as { node: string }).node}`)
    expect(refusing).toEqual([])
  })

  it('includes the Node that ships (the image and CI: 24) and the maintained Node 20 line it still builds on', () => {
    const ours = read('package.json').engines.node as string
    expect(semver.satisfies('24.0.0', ours)).toBe(true)
    expect(semver.satisfies('20.19.0', ours)).toBe(true)
    expect(semver.satisfies(process.versions.node, ours)).toBe(true)
  })
})
