import { withPayload } from '@payloadcms/next/withPayload'
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants.js'

import { contentSecurityPolicy, securityHeaders, uploadFileSecurityHeaders } from './src/edge/securityHeaders.js'

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // unauthorized() and forbidden() in the console's server function: a refused call is a 401/403,
  // not a 500 (app/(payload)/serverFunction.ts).
  experimental: { authInterrupts: true },
  // Under `next dev` / `next start`; the production server (server.ts) sets the same ones itself.
  async headers() {
    const dev = process.env.NODE_ENV !== 'production'
    const list = (/** @type {Record<string, string>} */ headers) => Object.entries(headers).map(([key, value]) => ({ key, value }))
    const { 'Content-Security-Policy': _policy, ...everywhere } = securityHeaders({ dev })
    return [
      { source: '/:path*', headers: list(everywhere) },
      // The site's policy on pages only: under /api/ an answer's handler sets its own (an uploaded
      // file's, whatever path reached it: Next matches these rules on the raw path, so
      // `/api/media/%66ile/x.svg` would have been given the site's policy over the file's).
      { source: '/((?!api/).*)', headers: [{ key: 'Content-Security-Policy', value: contentSecurityPolicy({ dev }) }] },
      { source: '/api/:collection/file/:name*', headers: list(uploadFileSecurityHeaders()) },
    ]
  },
  // The API answers its own errors and caching; keep Next from adding compression twice behind a proxy.
  compress: true,
}

/** @param {string} phase */
export default function configFor(phase) {
  const config = withPayload(nextConfig, { devBundleServerPackages: false })
  // Payload turns Turbopack's server fast refresh off because it breaks Payload's hot reload: a
  // development server's concern. A build lists it as a disabled experiment, a red
  // "⨯ turbopackServerFastRefresh" on a first run that is no error; only the dev server keeps it.
  if (phase !== PHASE_DEVELOPMENT_SERVER && config.experimental) delete config.experimental.turbopackServerFastRefresh
  return config
}
