/** "3 h", "2 d": how long ago an ISO time was, for the console's tiles and queue. */
export function timeAgo(iso: string | null, now = Date.now()): string {
  if (!iso) return '—'
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000))
  if (minutes < 60) return `${minutes} min`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${hours} h`
  return `${Math.round(hours / 24)} d`
}
