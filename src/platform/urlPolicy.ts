/**
 * The URL policy, one place for the API, the collections and the environment.
 *
 * - Content URLs: absolute http(s) only.
 * - Branding logo and icon: absolute http(s), or a root-relative path (`/logo.png`, never
 *   `//host` or `/\host`, which browsers read as another host).
 * - The public URL: absolute http(s).
 * No scheme but http(s) (`javascript:`, `data:`), no whitespace, control characters or
 * backslashes (URL parsers drop or rewrite them, so what is stored would not be what is used).
 */
import { z } from 'zod'

import { TEXT_LIMITS, textField, textValidator, URL_MESSAGES } from './text'

const UNSAFE = /[\u0000-\u0020\u007f-\u009f\\]/

export function isAbsoluteHttpUrl(value: string): boolean {
  if (UNSAFE.test(value) || !/^https?:\/\/[^/?#]/i.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

export function isRootRelativePath(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !UNSAFE.test(value)
}

/** A branding logo or icon URL as stored or configured. */
export const isBrandingUrl = (value: string): boolean => isAbsoluteHttpUrl(value) || isRootRelativePath(value)

/**
 * A URL as served (branding, thumbnails): absolute ones as they are, a root-relative path made absolute
 * against `base` (the public URL, else the request's origin). Anything else (a value stored
 * before this policy) is not served: ''.
 */
export function servedUrl(value: string, base: string): string {
  if (isAbsoluteHttpUrl(value)) return value
  if (!isRootRelativePath(value)) return ''
  return isAbsoluteHttpUrl(base) ? new URL(value, base).toString() : value
}

/** API: a content item's `url` (constraint `url`). */
export const contentUrlField = textField(TEXT_LIMITS.url).refine(isAbsoluteHttpUrl, {
  message: URL_MESSAGES.url,
  params: { constraint: 'url' },
})

/** Collections: the same rules for the console and the local API. */
export const contentUrlValidator = textValidator(TEXT_LIMITS.url, (v) => isAbsoluteHttpUrl(v) || URL_MESSAGES.url)
export const brandingUrlValidator = textValidator(TEXT_LIMITS.url, (v) => isBrandingUrl(v) || URL_MESSAGES.url_or_path)
export const publicUrlValidator = textValidator(TEXT_LIMITS.url, (v) => isAbsoluteHttpUrl(v) || URL_MESSAGES.url)

/** Environment: '' (unset) or a URL the policy accepts. */
export const brandingUrlEnv = z.string().refine((v) => v === '' || isBrandingUrl(v), 'must be an absolute http(s) URL or a root-relative path like /logo.png')
export const publicUrlEnv = z.string().refine((v) => v === '' || isAbsoluteHttpUrl(v), 'must be an absolute http(s) URL')
