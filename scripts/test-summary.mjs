// Prints vitest's JSON report as one line: `N passed, N failed` (and skipped, if any).
// Exits non-zero when anything failed, or when the report is missing (nothing ran).
import { readFileSync } from 'node:fs'

const file = process.argv[2] ?? 'test-results/vitest.json'
let report
try {
  report = JSON.parse(readFileSync(file, 'utf8'))
} catch {
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const passed = report.numPassedTests ?? 0
// A file that failed without a failing test (it did not load, or a hook threw) counts once.
const brokenFiles = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && !(r.assertionResults ?? []).some((a) => a.status === 'failed'),
).length
const failed = (report.numFailedTests ?? 0) + brokenFiles
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
