// One command to see the product: builds if needed, then serves the admin panel and the API
// on embedded SQLite with the demo data and a documented admin account.
// Secrets are generated once into data/demo-secrets.json (git-ignored) and reused.
import { execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { serverNodeFlags } from './serverCommand.mjs'

mkdirSync('data', { recursive: true })
const secretsFile = 'data/demo-secrets.json'
if (!existsSync(secretsFile)) {
  const make = () => randomBytes(32).toString('base64url')
  writeFileSync(
    secretsFile,
    JSON.stringify({ PAYLOAD_SECRET: make(), JWT_ACCESS_SECRET: make(), JWT_REFRESH_SECRET: make() }, null, 2),
    { mode: 0o600 },
  )
}
const secrets = JSON.parse(readFileSync(secretsFile, 'utf8'))

const env = {
  ...secrets,
  PORT: '3000',
  DATABASE_URI: 'file:./data/demo.db',
  SEED_DEMO: 'true',
  AUTH_ALLOW_SELF_REGISTRATION: 'true',
  BOOTSTRAP_ADMIN_EMAIL: 'admin@example.com',
  BOOTSTRAP_ADMIN_PASSWORD: 'admin-password-123',
  CORS_ALLOWED_ORIGINS: 'http://localhost:5173',
  NEXT_TELEMETRY_DISABLED: '1',
  ...process.env,
}

if (!existsSync('.next/BUILD_ID') || !existsSync('dist/server.js')) {
  console.log('Building the app (first run only)...')
  execSync('npm run build', { stdio: 'inherit', env })
}

console.log(`
  Admin panel: http://localhost:${env.PORT}/admin
    sign in as ${env.BOOTSTRAP_ADMIN_EMAIL} / ${process.env.BOOTSTRAP_ADMIN_PASSWORD ? '(your BOOTSTRAP_ADMIN_PASSWORD)' : env.BOOTSTRAP_ADMIN_PASSWORD}
  API:         http://localhost:${env.PORT}/api/v1/meta
`)
const child = spawn(process.execPath, [...serverNodeFlags(), 'dist/server.js'], { env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))
