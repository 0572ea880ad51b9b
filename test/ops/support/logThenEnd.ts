/**
 * A child process for test/ops/logFlush.test.ts: writes many log lines through the real
 * logger (production destination: buffered, asynchronous), then ends at once the way named
 * by argv[2]: `exit` (process.exit(0)), `throw` (an uncaught error), `crash` (an uncaught
 * error with the server's crash handler installed).
 */
import { logCrashes, logger } from '../../../src/platform/logging'

const how = process.argv[2]
const count = Number(process.argv[3] ?? 1000)
if (how === 'crash') logCrashes()
const log = logger()
for (let i = 0; i < count; i++) log.info({ n: i, route: 'GET /api/v1/content', statusCode: 200, durationMs: 1 }, 'request.completed')
log.info({ n: count }, 'last.line')
if (how === 'exit') process.exit(0)
throw new Error('boom after logging')
