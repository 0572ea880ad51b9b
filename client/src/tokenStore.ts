/**
 * Where the worker keeps the token pair. Read fresh on every request (a service worker may
 * be restarted at any time; another context may have signed in or out meanwhile).
 */
export type Tokens = { accessToken: string; refreshToken: string }

export interface TokenStore {
  get(): Promise<Tokens | null>
  set(tokens: Tokens): Promise<void>
  clear(): Promise<void>
}

/** In memory: tests, or a page that keeps nothing across reloads. */
export function memoryTokenStore(initial: Tokens | null = null): TokenStore {
  let tokens = initial
  return {
    get: async () => tokens,
    set: async (next) => {
      tokens = { ...next }
    },
    clear: async () => {
      tokens = null
    },
  }
}

/** The part of `chrome.storage.local` (a `chrome.storage.StorageArea`) the store uses. */
export type StorageAreaLike = {
  get(key: string): Promise<Record<string, unknown>>
  set(items: Record<string, unknown>): Promise<void>
  remove(key: string): Promise<void>
}

const isTokens = (value: unknown): value is Tokens =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Tokens).accessToken === 'string' &&
  typeof (value as Tokens).refreshToken === 'string'

/** An extension's `chrome.storage.local` (pass it in: `chromeStorageTokenStore(chrome.storage.local)`). */
export function chromeStorageTokenStore(area: StorageAreaLike, key = 'curation.tokens'): TokenStore {
  return {
    get: async () => {
      const value = (await area.get(key))[key]
      return isTokens(value) ? { accessToken: value.accessToken, refreshToken: value.refreshToken } : null
    },
    set: (tokens) => area.set({ [key]: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } }),
    clear: () => area.remove(key),
  }
}
