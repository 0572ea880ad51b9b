// One command to see the product: builds if needed, then serves the admin panel and the API
// on embedded SQLite with the demo data and a documented admin account, saying at each step
// what it does, how long that usually takes, and how long it took.
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

const started = Date.now()
const seconds = (from) => `${Math.round((Date.now() - from) / 1000)} s`
const step = (n, text) => console.log(`\n[demo ${n}/2] ${text}`)

let built = 'already built'
if (!existsSync('.next/BUILD_ID') || !existsSync('dist/server.js')) {
  step(1, 'Building the app: first run only, usually 1-3 minutes on 2 cores (Next compiles the console, esbuild the server)...')
  const from = Date.now()
  execSync('npm run build', { stdio: 'inherit', env })
  built = `built in ${seconds(from)}`
  console.log(`[demo 1/2] Built in ${seconds(from)}.`)
} else {
  step(1, 'Already built (delete .next/ to build again).')
}

step(2, `Starting the server: migrations, then the demo data on a new database (about 10-20 s). Its log lines follow.`)
const serverFrom = Date.now()
const child = spawn(process.execPath, [...serverNodeFlags(), 'dist/server.js'], { env, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))

// Announce the addresses once the server answers /ready, not before.
const base = `http://localhost:${env.PORT}`
for (let ready = false; !ready && child.exitCode === null; ) {
  await new Promise((r) => setTimeout(r, 500))
  ready = await fetch(`${base}/api/v1/ready`).then((r) => r.ok, () => false)
}
if (child.exitCode === null) {
  console.log(`
[demo] Ready ${seconds(started)} after \`npm run demo\` began (${built}, the server up in ${seconds(serverFrom)}; \`npm ci\` before it is not counted).
  The demo turns on what a production start leaves off: the demo data, the admin account below,
  self-registration and CORS for ${env.CORS_ALLOWED_ORIGINS}. It sends no email. Another port: PORT=4000 npm run demo.
  Admin panel: ${base}/admin
    sign in as ${env.BOOTSTRAP_ADMIN_EMAIL} / ${process.env.BOOTSTRAP_ADMIN_PASSWORD ? '(your BOOTSTRAP_ADMIN_PASSWORD)' : env.BOOTSTRAP_ADMIN_PASSWORD}
  API:         ${base}/api/v1/meta
`)
}
