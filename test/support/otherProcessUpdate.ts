/** Entry point of updateInOtherProcess (test/support/otherProcess.ts): one Payload update, then exit. */
import { type CollectionSlug, getPayload, type Where } from 'payload'

const { collection, where, data } = JSON.parse(process.env.OTHER_PROCESS_UPDATE ?? '{}') as {
  collection: CollectionSlug
  where: Where
  data: Record<string, unknown>
}
const config = (await import('../../payload.config')).default
const payload = await getPayload({ config })
const result = await payload.update({ collection, where, data, overrideAccess: true })
if (result.errors.length > 0 || result.docs.length === 0) {
  process.stderr.write(`update failed: ${JSON.stringify(result.errors)} (${result.docs.length} updated)\n`)
  process.exit(1)
}
process.exit(0)
