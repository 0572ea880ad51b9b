/**
 * Debian's Chromium driven by playwright-core. A missing browser fails the run: browser
 * tests are never skipped silently.
 */
import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'

export const CHROMIUM = '/usr/bin/chromium'
export const SCREENSHOTS = path.resolve(import.meta.dirname, '../../../test-results/screenshots')

/**
 * One Chromium per worker process, kept for the files the worker runs next (vitest.config.ts:
 * files share their worker's process), as Playwright's own runner keeps one per worker: each file
 * works in browser contexts of its own (`newPage`, `newContext`: cookies, storage and cache apart)
 * and closes them when it is done (`closeBrowser`). A start of Chromium is ~0.3 s of CPU and a
 * second of a file's time; the browser ends with its worker.
 */
const SHARED = Symbol.for('curation.sharedChromium')

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: install it with \`apt-get install -y chromium\``)
  }
  const shared = globalThis as { [SHARED]?: Promise<Browser> }
  const running = await shared[SHARED]?.catch(() => undefined)
  if (running?.isConnected()) return running
  shared[SHARED] = startChromium()
  return shared[SHARED]
}

/** What a file opened in the worker's browser, closed (its contexts and their pages); the browser stays for the next file. */
export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return
  await Promise.all(browser.contexts().map((context) => context.close()))
}

function startChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const file = path.join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}

/** Signs in through Payload's login form and waits for the dashboard. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/login`)
  await page.locator('#field-email').fill(email)
  await page.locator('#field-password').fill(password)
  await page.locator('button[type="submit"]').click()
}
