# Node 24: the current LTS, the runtime .ci/run tests (Node 20 reached end of life in April 2026).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build cache is only for rebuilds; the runtime needs none of it.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund && rm -rf .next/cache

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1
# The code stays root-owned (the app cannot rewrite itself); what the app writes belongs to
# `node`: the SQLite file and uploads under data/ (media is a volume: a new named volume
# takes this directory's owner) and Next's runtime cache.
COPY --from=build /app /app
RUN mkdir -p /app/data/media /app/.next/cache \
 && chown -R node:node /app/data /app/.next/cache
USER node
EXPOSE 3000
# The server compiled by `npm run build` (scripts/build-server.mjs): plain node, no transpiler.
CMD ["node", "--max-old-space-size=384", "--max-semi-space-size=4", "--heap-growing-percent=50", "--no-allocation-site-pretenuring", "dist/server.js"]
