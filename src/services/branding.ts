import type { Payload } from 'payload'

import { getConfig } from '../platform/config'
import { perDatabase, VersionedCache, VersionedValue } from '../db/freshness'
import { answerSerializer, type SerializedAnswer } from '../platform/serializedAnswer'
import { isAbsoluteHttpUrl, servedUrl } from '../platform/urlPolicy'
import { domainVersion } from './domainVersions'
import type { BrandingRecord } from './dtos'

/** The branding record of GET /meta (src/services/dtos): the configured fields, as edited, plus feature flags. */
export type { BrandingRecord }

type MediaLike = { url?: string | null } | string | null | undefined

type BrandingDoc = {
  name?: string | null
  tagline?: string | null
  description?: string | null
  logo?: MediaLike
  logoUrl?: string | null
  icon?: MediaLike
  iconUrl?: string | null
  primaryColor?: string | null
  publicUrl?: string | null
  submissionsOpen?: boolean | null
}

const edited = (value: string | null | undefined, fallback: string) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback

const uploadUrl = (media: MediaLike) => (media && typeof media === 'object' && media.url ? media.url : '')

/**
 * The edited branding, kept per branding generation (src/db/freshness/generations): /meta is hit
 * on every extension start, and costs one key lookup until the global or an upload it shows
 * is written, by any path in any process.
 */
const brandingDocs = perDatabase(() => new VersionedValue<BrandingDoc>('branding_document'))

export async function readBrandingDoc(payload: Payload): Promise<BrandingDoc> {
  const version = domainVersion(payload, 'branding')
  return brandingDocs(payload.db).get(version, () => payload.findGlobal({ slug: 'branding', depth: 1, overrideAccess: true }) as Promise<BrandingDoc>)
}

/** The public URL: the console's edited one, else APP_PUBLIC_URL; empty when neither is set. */
function publicUrlOf(doc: BrandingDoc): string {
  // Values stored before the URL policy existed are skipped, never served.
  const editedPublic = edited(doc.publicUrl, '')
  return isAbsoluteHttpUrl(editedPublic) ? editedPublic : getConfig().branding.publicUrl
}

/** The public branding record: each field the edited global value, else its environment variable. */
export async function brandingRecord(payload: Payload, requestOrigin: string): Promise<BrandingRecord> {
  const env = getConfig()
  const doc = await readBrandingDoc(payload)
  const publicUrl = publicUrlOf(doc)
  const base = publicUrl || requestOrigin
  const served = (...candidates: string[]) => candidates.map((url) => servedUrl(url, base)).find((url) => url !== '') ?? ''
  return {
    name: edited(doc.name, env.branding.name),
    slug: env.branding.slug,
    tagline: edited(doc.tagline, env.branding.tagline),
    description: edited(doc.description, env.branding.description),
    logoUrl: served(uploadUrl(doc.logo), edited(doc.logoUrl, ''), env.branding.logoUrl),
    iconUrl: served(uploadUrl(doc.icon), edited(doc.iconUrl, ''), env.branding.iconUrl),
    primaryColor: edited(doc.primaryColor, env.branding.primaryColor),
    publicUrl,
    version: env.branding.version,
    features: {
      selfRegistration: env.auth.allowSelfRegistration,
      submissionsOpen: doc.submissionsOpen !== false,
    },
  }
}

/**
 * GET /meta's answer, serialized once per branding version with its ETag. Absolute links come
 * from the public URL; only without one do they resolve against the origin the client addressed,
 * and then the answer is one per origin and `hostDependent` (the route says `Vary: Host`, so a
 * shared cache never hands one host's links to another). Few origins reach one server; an
 * unbounded Host header could name many, so only the most recent few are kept.
 */
const brandingAnswers = perDatabase(() => new VersionedCache<SerializedAnswer>('branding_answers', 16))

export async function brandingAnswer(payload: Payload, requestOrigin: string): Promise<{ answer: SerializedAnswer; hostDependent: boolean }> {
  const version = domainVersion(payload, 'branding')
  const hostDependent = publicUrlOf(await readBrandingDoc(payload)) === ''
  const answer = await brandingAnswers(payload.db).get(version, hostDependent ? requestOrigin : '', async () =>
    answerSerializer.serialize(await brandingRecord(payload, requestOrigin), undefined, { etagOverData: true }),
  )
  return { answer, hostDependent }
}

/** Whether POST /content/submit is open (branding's submissionsOpen, default true). */
export async function submissionsOpen(payload: Payload): Promise<boolean> {
  return (await readBrandingDoc(payload)).submissionsOpen !== false
}
