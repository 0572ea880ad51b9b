/**
 * npm run seed -- --demo          the demo deployment: taxonomy, 5 members, 300+ curated items in all three states
 * npm run seed -- --content N     N approved items (bulk, through src/db; FTS kept in sync by triggers)
 * npm run seed -- --tags N        N extra tags over every facet (bulk)
 * npm run seed -- --content N --seed S   the same N items for the same S (a reproducible corpus)
 */
import { resolvePackageImportsQuickly } from '../src/platform/packageImports'
import { progress } from './progress'

// Before Payload loads, as the server does (src/platform/packageImports): ~1 s of CPU less a run.
resolvePackageImportsQuickly()

const args = process.argv.slice(2)
const valueOf = (flag: string): number | undefined => {
  const i = args.indexOf(flag)
  if (i < 0) return undefined
  const n = Number(args[i + 1])
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`${flag} needs a non-negative integer\n`)
    process.exit(2)
  }
  return n
}

const demo = args.includes('--demo')
const contentCount = valueOf('--content')
const tagCount = valueOf('--tags')
const seed = valueOf('--seed')
if (!demo && contentCount === undefined && tagCount === undefined) {
  process.stderr.write('usage: npm run seed -- [--demo] [--content N [--seed S]] [--tags N]\n')
  process.exit(2)
}

try {
  const { getPayload } = await import('payload')
  const config = (await import('../payload.config')).default
  const payload = await getPayload({ config })
  const { seedContent, seedDemo, seedTags } = await import('../src/seed/seed')
  const started = Date.now()
  const report: Record<string, number> = {}
  if (demo) report.demoContent = (await seedDemo(payload)).content
  let tags: string[] | undefined
  if (tagCount) tags = await seedTags(payload, tagCount)
  if (tagCount) report.tags = tagCount
  if (contentCount) {
    const bar = progress('seed', contentCount)
    report.content = await seedContent(payload, contentCount, { tags, seed, progress: { rows: bar.update, step: bar.step } })
    bar.stop()
  }
  // Closed before exiting: on SQLite that folds the write-ahead log into the file (a million
  // items left a 1.7 GB log that every reader then searched, and the next start re-scanned).
  const { closeDatabase } = await import('../src/db/engine')
  await closeDatabase(payload)
  process.stdout.write(`${JSON.stringify({ msg: 'seed.done', ...report, ms: Date.now() - started })}\n`)
  process.exit(0)
} catch (err) {
  process.stderr.write(`seed failed: ${err instanceof Error ? err.stack : String(err)}\n`)
  process.exit(1)
}
