/**
 * Driver errors and handles recognised by what they carry (the server's code, its error
 * labels, the methods used), never by `instanceof`: a second copy of `mongodb` in node_modules
 * (mongoose's own, once the two drift apart after an upgrade) has classes of its own, and an
 * `instanceof` against ours would silently be false: no retry, "not connected" forever.
 */

/** The server's numeric error code, when the error carries one. */
export function serverCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined
  const code: unknown = (err as { code?: unknown }).code
  return typeof code === 'number' ? code : undefined
}

/** Whether the error carries the label (the server's errorLabels, or one the driver added). */
export function hasErrorLabel(err: unknown, label: string): boolean {
  if (typeof err !== 'object' || err === null) return false
  const withMethod = err as { hasErrorLabel?: unknown }
  if (typeof withMethod.hasErrorLabel === 'function') return Boolean((withMethod.hasErrorLabel as (l: string) => unknown).call(err, label))
  const labels: unknown = (err as { errorLabels?: unknown }).errorLabels
  return Array.isArray(labels) && labels.includes(label)
}

/** An object offering every named method: how a driver handle from any copy of `mongodb` is known. */
export function hasMethods<T>(value: unknown, ...methods: (keyof T & string)[]): value is T {
  if (typeof value !== 'object' || value === null) return false
  return methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function')
}
