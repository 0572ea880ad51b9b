import type { CollectionConfig } from 'payload'

import { allowIf } from '../access/collectionAccess'
import { getConfig } from '../src/platform/config'
import { UPLOAD_FILE_POLICY } from '../src/platform/media/uploadFilePolicy.js'
import { referencedWriteHooks } from './hooks/domainWrites'
import { noteUploadedFile, protectMediaInUseFromDelete, protectMediaInUseFromReplace, refuseUnsafeUploads, removeFileOfFailedSave } from './hooks/media'
import { TEXT_LIMITS, textValidator } from '../src/platform/text'

/** Uploaded images: branding logo and icon, content thumbnails. Files are public once uploaded. */
export const Media: CollectionConfig = {
  slug: 'media',
  admin: { group: 'Branding' },
  access: {
    read: () => true,
    create: allowIf('catalog.manage'),
    update: allowIf('catalog.manage'),
    delete: allowIf('catalog.manage'),
  },
  upload: {
    // MEDIA_DIR: a deployment's volume; each test file's and test server's own folder.
    staticDir: getConfig().mediaDir,
    mimeTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'image/gif'],
    // A file runs no script, whoever serves it (the Node server sets the same by path).
    modifyResponseHeaders: ({ headers }) => {
      headers.set('Content-Security-Policy', UPLOAD_FILE_POLICY)
      return headers
    },
  },
  // The branding record shows its logo's and icon's URLs; media shown somewhere is protected.
  hooks: {
    ...referencedWriteHooks('branding'),
    beforeOperation: [refuseUnsafeUploads, protectMediaInUseFromReplace],
    beforeDelete: [protectMediaInUseFromDelete],
    // A save that fails after its file was written removes the file (src/services/storedUploads).
    beforeChange: [noteUploadedFile],
    afterError: [removeFileOfFailedSave],
  },
  fields: [{ name: 'alt', type: 'text', validate: textValidator(TEXT_LIMITS.alt) }],
}
