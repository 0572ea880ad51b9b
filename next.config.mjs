import { withPayload } from '@payloadcms/next/withPayload'

import { securityHeaders } from './src/edge/securityHeaders.js'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // Under `next dev` / `next start`; the production server (server.ts) sets the same ones itself.
  async headers() {
    const dev = process.env.NODE_ENV !== 'production'
    return [{ source: '/:path*', headers: Object.entries(securityHeaders({ dev })).map(([key, value]) => ({ key, value })) }]
  },
  // The API answers its own errors and caching; keep Next from adding compression twice behind a proxy.
  compress: true,
}

export default withPayload(nextConfig, { devBundleServerPackages: false })
