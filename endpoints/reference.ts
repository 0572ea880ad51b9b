/**
 * The API's reference, outside /api/v1 and its envelope: `GET /openapi.json` (the OpenAPI
 * 3.1 document built from the route table, with an ETag) and `GET /docs` (Swagger UI from
 * the swagger-ui-dist package, served from node_modules under /docs/assets/: no CDN).
 * server.ts and the Next routes under app/ both answer through here.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

import { buildOpenApiDocument, type OpenApiDocument } from '../src/edge/openapi'
import type { ApiResult } from '../src/edge/route'
import { getConfig } from '../src/platform/config'
import { weakEtag } from '../src/platform/entityTag'
import { etagMatches } from '../src/edge/etag'
import type { HeaderReader } from '../src/edge/headers'
import { routes } from './index'

export const OPENAPI_PATH = '/openapi.json'
export const DOCS_PATH = '/docs'
const ASSETS_PATH = `${DOCS_PATH}/assets/`

export const isReferencePath = (path: string): boolean =>
  path === OPENAPI_PATH || path === DOCS_PATH || path === `${DOCS_PATH}/` || path.startsWith(ASSETS_PATH)

let cached: { document: OpenApiDocument; body: string; etag: string } | undefined

/** The document, built once per process: the routes do not change while it runs. */
export function openApiDocument(): OpenApiDocument {
  return openApi().document
}

function openApi() {
  if (!cached) {
    const { name, version } = getConfig().branding
    const document = buildOpenApiDocument(routes, { title: `${name} API`, version })
    const body = JSON.stringify(document)
    cached = { document, body, etag: weakEtag(body) }
  }
  return cached
}

/** The renderer's files this page uses, and their types: nothing else of the package is served. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
}

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#reference', deepLinking: true, persistAuthorization: false });
});
`

function page(title: string): string {
  const escaped = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escaped}</title>
<link rel="stylesheet" href="${ASSETS_PATH}swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS_PATH}swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}init.js"></script>
</body>
</html>
`
}

const notFound = (): ApiResult => ({
  status: 404,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  body: 'Not found',
})

/** The answer to a reference path, or undefined when the path is not one. */
export async function answerReference(method: string, path: string, headers: HeaderReader): Promise<ApiResult | undefined> {
  if (!isReferencePath(path)) return undefined
  if (method !== 'GET' && method !== 'HEAD') {
    return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Method not allowed' }
  }
  if (path === OPENAPI_PATH) {
    const { body, etag } = openApi()
    const common = { ETag: etag, 'Cache-Control': 'public, max-age=300, must-revalidate', 'Access-Control-Allow-Origin': '*' }
    if (etagMatches(headers.get('if-none-match'), etag)) return { status: 304, headers: common, body: null }
    return { status: 200, headers: { ...common, 'Content-Type': 'application/json; charset=utf-8' }, body }
  }
  if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
    return {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
      body: page(`${getConfig().branding.name} API reference`),
    }
  }
  const file = path.slice(ASSETS_PATH.length)
  if (file === 'init.js') {
    return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }, body: INIT_SCRIPT }
  }
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined
  if (!type) return notFound()
  const content = await readFile(join(process.cwd(), 'node_modules', 'swagger-ui-dist', file), 'utf8')
  return { status: 200, headers: { 'Content-Type': type, 'Cache-Control': 'public, max-age=86400' }, body: content }
}
