/**
 * A second process on the test's database: starts Payload (and with it the follow-up
 * runner, as the server does), says "ready" on stdout, and stops gracefully when its
 * stdin closes or says "stop". Used to race two processes over one outbox.
 */
import { getPayload } from 'payload'

const config = (await import('../../../payload.config')).default
await getPayload({ config })
const { stopFollowUps } = await import('../../../src/jobs/followUps')
process.stdout.write('ready\n')

let stopping = false
const stop = async () => {
  if (stopping) return
  stopping = true
  await stopFollowUps()
  process.stdout.write('stopped\n')
  process.exit(0)
}
process.stdin.on('data', (chunk) => {
  if (String(chunk).includes('stop')) void stop()
})
process.stdin.on('end', () => void stop())
