/** Reads a change counter kept by the raw_versions triggers (a migration's; contentSchema checks them). */
import type { Domain } from '../versionDomains'
import { statement } from './connection'

/** One counter, by domain name. */
export const VERSION_SQL = 'SELECT n FROM raw_versions WHERE name = ?'

export function sqliteVersionOf(file: string, domain: Domain): string {
  const row: unknown = statement(file, VERSION_SQL).get(domain)
  return Array.isArray(row) && row[0] != null ? String(row[0]) : ''
}
