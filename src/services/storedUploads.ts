/**
 * An upload's file is written before its document (Payload stores the file, then inserts the
 * row): a save that fails after that, or a Local API create retried after a WriteConflict (which
 * stores the next attempt under a new free name), would leave a file no document names. The
 * media collection's hooks (collections/hooks/media.ts) note the file a save writes
 * (`noteStoredUpload`), and a failed save removes it again (`removeUnsavedUpload`: Payload REST
 * through the collection's afterError hook, the service's own creates through `createUpload`),
 * unless a document names it after all.
 */
import { unlink } from 'node:fs/promises'
import path from 'node:path'

import type { Payload, RequestContext } from 'payload'

import { payloadWrite } from '../db/payloadWrite'
import { getConfig } from '../platform/config'

const STORED_UPLOAD = 'storedUpload'

/** A save that writes a new file names it in its context (its filename is final before the file is written). */
export function noteStoredUpload(context: RequestContext, filename: unknown): void {
  if (typeof filename === 'string') context[STORED_UPLOAD] = filename
}

/** The file a failed save wrote, removed unless a document names it; answers whether it removed one. */
export async function removeUnsavedUpload(payload: Payload, context: RequestContext): Promise<boolean> {
  const filename = context[STORED_UPLOAD]
  if (typeof filename !== 'string' || filename === '' || filename !== path.basename(filename)) return false
  delete context[STORED_UPLOAD]
  const named = await payload.count({ collection: 'media', where: { filename: { equals: filename } }, overrideAccess: true })
  if (named.totalDocs > 0) return false
  const staticDir = payload.collections.media?.config.upload.staticDir ?? getConfig().mediaDir
  try {
    await unlink(path.resolve(staticDir, filename))
    return true
  } catch {
    return false
  }
}


/** What the service uploads: the document's data and the file. */
export type UploadArgs = { data: { alt?: string | null }; file: { data: Buffer; mimetype: string; name: string; size: number } }

/** The service's uploads: a Local API create, retried on transient failures, each failed attempt's file removed. */
export function createUpload(payload: Payload, args: UploadArgs) {
  return payloadWrite(async () => {
    const context: RequestContext = {}
    try {
      return await payload.create({ collection: 'media', data: args.data, file: args.file, overrideAccess: true, context, depth: 0 })
    } catch (err) {
      await removeUnsavedUpload(payload, context)
      throw err
    }
  })
}
