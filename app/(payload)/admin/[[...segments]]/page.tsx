import config from '@payload-config'
import { generatePageMetadata, RootPage } from '@payloadcms/next/views'
import type { Metadata } from 'next'
import { getPayload } from 'payload'

import { brandingRecord } from '../../../../src/services/branding'
import { importMap } from '../importMap.js'

type Args = {
  params: Promise<{ segments: string[] }>
  searchParams: Promise<{ [key: string]: string | string[] }>
}

/** Payload's metadata, with the tab's title naming the team's branding as it is now, not APP_NAME at start-up. */
export const generateMetadata = async ({ params, searchParams }: Args): Promise<Metadata> => {
  const [metadata, payload] = await Promise.all([generatePageMetadata({ config, params, searchParams }), getPayload({ config })])
  const { name } = await brandingRecord(payload, '')
  const title = typeof metadata.title === 'string' ? metadata.title : ((metadata.title as { absolute?: string; default?: string } | null)?.absolute ?? '')
  const suffix = (await config).admin.meta?.titleSuffix ?? ''
  const page = suffix && title.endsWith(suffix) ? title.slice(0, -suffix.length) : title
  return { ...metadata, title: { absolute: `${page || 'Console'} · ${name}` } }
}

const Page = ({ params, searchParams }: Args) => RootPage({ config, params, searchParams, importMap })

export default Page
