/** Reads a change counter kept by the raw_versions triggers (contentSchema). */
import type { Domain } from '../versionDomains'
import { statement } from './connection'

export function sqliteVersionOf(file: string, domain: Domain): string {
  const row: unknown = statement(file, 'SELECT n FROM raw_versions WHERE name = ?').get(domain)
  return Array.isArray(row) && row[0] != null ? String(row[0]) : ''
}
