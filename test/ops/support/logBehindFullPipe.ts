/**
 * A child process for test/ops/logFlush.test.ts: ~120 KB of lines at once into a stdout pipe the
 * parent is not reading yet (the write blocks on the full pipe for several flush periods), then one
 * short line while that write is still in flight; then it stays alive for 3 s doing nothing.
 */
import { logger, logRequestCompleted } from '../../../src/platform/logging'

for (let i = 0; i < 400; i++) {
  logRequestCompleted('info', { requestId: `fill_${i}_${'x'.repeat(200)}`, route: 'GET /api/v1/content', userId: undefined, statusCode: 200, durationMs: 1 })
}
setTimeout(() => logger().info({ n: 'last' }, 'last.line'), 50)
setTimeout(() => process.exit(0), 3000)
