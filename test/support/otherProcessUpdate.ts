/** Entry point of updateInOtherProcess (test/support/otherProcess.ts): one Payload update, then exit. */
import { type CollectionSlug, getPayload, type GlobalSlug, type Where } from 'payload'

const update = JSON.parse(process.env.OTHER_PROCESS_UPDATE ?? '{}') as
  | { collection: CollectionSlug; where: Where; data: Record<string, unknown> }
  | { global: GlobalSlug; data: Record<string, unknown> }
const config = (await import('../../payload.config')).default
const payload = await getPayload({ config })
if ('global' in update) {
  await payload.updateGlobal({ slug: update.global, data: update.data, overrideAccess: true })
} else {
  const result = await payload.update({ collection: update.collection, where: update.where, data: update.data, overrideAccess: true })
  if (result.errors.length > 0 || result.docs.length === 0) {
    process.stderr.write(`update failed: ${JSON.stringify(result.errors)} (${result.docs.length} updated)\n`)
    process.exit(1)
  }
}
process.exit(0)
