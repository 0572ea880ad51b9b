/**
 * The media collection's hooks: a file the service shows cannot be deleted or replaced
 * (src/services/mediaInUse.ts says where a file is shown). 409 in the console and Payload REST.
 */
import { readFile } from 'node:fs/promises'

import {
  APIError,
  type CollectionAfterErrorHook,
  type CollectionBeforeChangeHook,
  type CollectionBeforeDeleteHook,
  type CollectionBeforeOperationHook,
  ValidationError,
  type Where,
} from 'payload'

import { getConfig } from '../../src/platform/config'
import { declaredPixels } from '../../src/platform/media/imagePixels'
import { uploadProblem } from '../../src/platform/media/uploadChecks'
import { mediaUses } from '../../src/services/mediaInUse'
import { noteStoredUpload, removeUnsavedUpload } from '../../src/services/storedUploads'

/**
 * A file that may not be stored (src/platform/media/uploadChecks: a name with control characters, an
 * SVG in any encoding but UTF-8; src/platform/media/imagePixels: an image declaring more than
 * MEDIA_MAX_PIXELS pixels) is a 400 naming the field, before Payload writes anything.
 */
export const refuseUnsafeUploads: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if ((operation !== 'create' && operation !== 'update' && operation !== 'updateByID') || !req.file) return args
  const { name, mimetype, data, tempFilePath } = req.file
  // With temporary files on, the bytes are on disk rather than in `data`.
  const bytes = data.length === 0 && tempFilePath ? await readFile(tempFilePath) : data
  const problem = uploadProblem({ name, mimetype, data: bytes })
  // The label carries the reason into the message, which is what Payload answers in production.
  if (problem) throw new ValidationError({ collection: 'media', errors: [{ ...problem, label: `${problem.path} (${problem.message})` }] })
  const limit = getConfig().mediaMaxPixels
  const size = await declaredPixels(bytes, mimetype, name)
  if (size && size.pixels > limit) {
    const frames = size.frames > 1 ? ` × ${size.frames} frames` : ''
    throw new APIError(
      `The image declares ${size.width} × ${size.height} pixels${frames}; at most ${limit.toLocaleString('en')} are accepted (MEDIA_MAX_PIXELS). Scale it down first.`,
      400,
      { field: 'file', constraint: 'max_pixels', limit, width: size.width, height: size.height, frames: size.frames },
      true,
    )
  }
  return args
}

const inUse = (uses: string[], what: string) =>
  new APIError(`This file is in use (${uses.join(', ')}): ${what}. Choose another file there first.`, 409, { uses }, true)

export const protectMediaInUseFromDelete: CollectionBeforeDeleteHook = async ({ id, req }) => {
  const uses = await mediaUses(req, String(id))
  if (uses.length > 0) throw inUse(uses, 'it cannot be deleted')
}

/**
 * A new file on an existing record (Payload's "replace file"): refused while the record is
 * shown. Before the operation: Payload deletes the old file before any change hook runs.
 */
export const protectMediaInUseFromReplace: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if ((operation !== 'update' && operation !== 'updateByID') || !req.file) return args
  const { id, where } = args as { id?: unknown; where?: Where }
  const ids =
    id !== undefined
      ? [String(id)]
      : (await req.payload.find({ collection: 'media', where: where ?? {}, depth: 0, pagination: false, overrideAccess: true, select: {}, req })).docs.map((d) => String(d.id))
  for (const mediaId of ids) {
    const uses = await mediaUses(req, mediaId)
    if (uses.length > 0) throw inUse(uses, 'its file cannot be replaced')
  }
  return args
}

/** beforeChange: a save that writes a new file names it (src/services/storedUploads), before Payload writes it. */
export const noteUploadedFile: CollectionBeforeChangeHook = ({ data, req }) => {
  if (req.file) noteStoredUpload(req.context, data.filename)
  return data
}

/** afterError (Payload REST, the admin panel's uploads): a failed save leaves no file behind. */
export const removeFileOfFailedSave: CollectionAfterErrorHook = async ({ context, req }) => {
  await removeUnsavedUpload(req.payload, context)
}
