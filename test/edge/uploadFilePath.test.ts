/**
 * Which request targets get an upload file's policy (src/edge/securityHeaders.js): every spelling
 * that reaches Payload's file route (test/browser/uploads.test.ts serves them over HTTP), and, by
 * its quick refusal, none of the targets that cannot spell one without a full parse.
 */
import { describe, expect, it } from 'vitest'

import { isUploadFilePath } from '../../src/edge/securityHeaders.js'

describe('isUploadFilePath', () => {
  it('matches every spelling of the file route: escapes, doubled slashes, dot segments, backslashes, case, a tab the URL parser drops', () => {
    for (const target of [
      '/api/media/file/x.svg',
      '/api/media/%66ile/x.svg',
      '/api/%6d%65%64%69%61/%66%69%6c%65/x.svg',
      '/api//media/file/x.svg',
      '/api/media/./file/x.svg',
      '/api/x/../media/file/x.svg',
      '/api/media/%2e/file/x.svg',
      '/api/media\\file\\x.svg',
      '/api/MEDIA/FILE/x.svg',
      '/api/media/fi\tle/x.svg',
      '/api/media/file/x.svg?download=1',
    ]) {
      expect(isUploadFilePath(target), target).toBe(true)
    }
  })

  it('refuses targets that do not reach it, including those that name `file` only in the query or fragment', () => {
    for (const target of [
      '/',
      '/api/v1/content',
      '/api/v1/content?q=file%20names',
      '/api/media?where[filename][equals]=file/x.svg',
      '/api/media#/file/x.svg',
      '/api/media/files/x.svg',
      '/admin/collections/media/file/x',
      '/api/media/%zz/x.svg',
    ]) {
      expect(isUploadFilePath(target), target).toBe(false)
    }
  })
})
