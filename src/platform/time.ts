/** Spans of time the services count in, written once. */

/** One calendar day in milliseconds (UTC days: no daylight-saving shifts). */
export const DAY_MS = 86_400_000
