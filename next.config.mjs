import { withPayload } from '@payloadcms/next/withPayload'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The API answers its own errors and caching; keep Next from adding compression twice behind a proxy.
  compress: true,
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
