/**
 * Integer lists that SQLite hands over as one comma-separated text (group_concat): far cheaper
 * to build and to read than one row per value through the driver, or than JSON.
 */

/** The integers of a comma list, in order. */
export function parseIntegers(csv: string): Int32Array {
  // Every entry takes at least two characters with its comma.
  const out = new Int32Array((csv.length + 1) >> 1)
  let n = 0
  let value = 0
  for (let i = 0; i <= csv.length; i++) {
    const c = i < csv.length ? csv.charCodeAt(i) : 44
    if (c !== 44) {
      value = value * 10 + (c - 48)
      continue
    }
    out[n++] = value
    value = 0
  }
  // A copy of the right length: a view would keep the whole estimate alive.
  return out.slice(0, csv.length === 0 ? 0 : n)
}
