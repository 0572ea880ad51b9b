/**
 * Entry point of a second app process that refreshes on command (test/support/otherProcess.ts):
 * it starts Payload on the test file's database, prints `ready`, then for each refresh token
 * read from stdin (one per line) runs the refresh service and prints `200 <new token>` or
 * `401`, so a test can fire it at the same moment as a refresh in its own process.
 */
import { createInterface } from 'node:readline'

import { getPayload } from 'payload'

const config = (await import('../../payload.config')).default
const payload = await getPayload({ config })
const { refresh } = await import('../../src/services/auth')
process.stdout.write('ready\n')
for await (const line of createInterface({ input: process.stdin })) {
  const token = line.trim()
  if (!token) continue
  const answer = await refresh(payload, token, { ip: '10.9.9.9', userAgent: 'other-process' }).then(
    (pair) => `200 ${pair.refreshToken}`,
    () => '401',
  )
  process.stdout.write(`${answer}\n`)
}
process.exit(0)
