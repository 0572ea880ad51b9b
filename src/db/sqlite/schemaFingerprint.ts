/**
 * A deterministic fingerprint of Payload's drizzle schema for SQLite: every table's columns
 * (name, SQL type, not null, default, primary key, unique, autoincrement), indexes, foreign
 * keys, checks, primary keys and unique constraints, plus the versions of Payload and
 * drizzle-kit (either may change the DDL a schema maps to). Schema sync (./schemaSync) stores
 * it after a successful push and skips drizzle-kit while it still matches: loading drizzle-kit
 * costs a serving process tens of MB it never gives back.
 */
import { is, SQL } from '@payloadcms/db-sqlite/drizzle'
import { getTableConfig, SQLiteSyncDialect, SQLiteTable } from '@payloadcms/db-sqlite/drizzle/sqlite-core'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

const dialect = new SQLiteSyncDialect()

/** SQL expressions (defaults, index expressions, checks) as the SQL text and parameters they render to. */
function describeValue(value: unknown): unknown {
  if (is(value, SQL)) {
    const { sql, params } = dialect.sqlToQuery(value)
    return { sql, params }
  }
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'bigint') return value.toString()
  return value ?? null
}

/** Names only: columns reference their table, which references its columns. */
const columnName = (column: unknown): unknown =>
  is(column, SQL) ? describeValue(column) : (column as { name: string }).name

function describeTable(table: SQLiteTable) {
  const config = getTableConfig(table)
  const byName = <T>(items: T[], name: (item: T) => string) => [...items].sort((a, b) => name(a).localeCompare(name(b)))
  return {
    name: config.name,
    columns: byName(config.columns, (c) => c.name).map((c) => ({
      name: c.name,
      type: c.getSQLType(),
      notNull: c.notNull,
      default: c.hasDefault ? describeValue(c.default) : null,
      primary: c.primary,
      unique: c.isUnique ? (c.uniqueName ?? true) : false,
      autoIncrement: 'autoIncrement' in c ? Boolean(c.autoIncrement) : false,
      generated: c.generated ? { type: c.generated.type, as: describeValue(c.generated.as) } : null,
    })),
    indexes: byName(config.indexes, (i) => i.config.name).map((i) => ({
      name: i.config.name,
      columns: i.config.columns.map(columnName),
      unique: i.config.unique,
      where: i.config.where ? describeValue(i.config.where) : null,
    })),
    foreignKeys: byName(config.foreignKeys, (fk) => fk.getName()).map((fk) => {
      const ref = fk.reference()
      return {
        name: fk.getName(),
        columns: ref.columns.map((c) => c.name),
        foreignTable: getTableConfig(ref.foreignTable).name,
        foreignColumns: ref.foreignColumns.map((c) => c.name),
        onUpdate: fk.onUpdate ?? null,
        onDelete: fk.onDelete ?? null,
      }
    }),
    checks: byName(config.checks, (c) => c.name).map((c) => ({ name: c.name, value: describeValue(c.value) })),
    primaryKeys: byName(config.primaryKeys, (pk) => pk.getName()).map((pk) => ({ name: pk.getName(), columns: pk.columns.map((c) => c.name) })),
    uniqueConstraints: byName(config.uniqueConstraints, (u) => u.getName() ?? '').map((u) => ({
      name: u.getName() ?? null,
      columns: u.columns.map((c) => c.name),
    })),
  }
}

const require = createRequire(import.meta.url)

/**
 * Where each package's entry resolves: literal specifiers, so a bundler (Next's copy of this
 * module, which never syncs) has nothing dynamic to resolve.
 */
const entries = (): Record<string, () => string> => ({
  payload: () => require.resolve('payload'),
  '@payloadcms/db-sqlite': () => require.resolve('@payloadcms/db-sqlite'),
  'drizzle-kit': () => require.resolve('drizzle-kit/api'),
})

/** A package's version, read from the package.json above its resolved entry ('unknown' when not found). */
function packageVersion(name: string): string {
  try {
    let dir = path.dirname(entries()[name]!())
    while (dir !== path.dirname(dir)) {
      const file = path.join(dir, 'package.json')
      if (existsSync(file)) {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
        if (pkg.name === name) return pkg.version ?? 'unknown'
      }
      dir = path.dirname(dir)
    }
  } catch {
    // Unresolvable here: the fingerprint still covers the schema itself.
  }
  return 'unknown'
}

/** The fingerprint of a drizzle schema object (Payload's `adapter.schema`: tables and relations). */
export function schemaFingerprint(schema: Record<string, unknown>): string {
  const tables = Object.values(schema)
    .filter((value): value is SQLiteTable => is(value, SQLiteTable))
    .map(describeTable)
    .sort((a, b) => a.name.localeCompare(b.name))
  const described = {
    payload: packageVersion('payload'),
    dbSqlite: packageVersion('@payloadcms/db-sqlite'),
    drizzleKit: packageVersion('drizzle-kit'),
    tables,
  }
  return createHash('sha256').update(JSON.stringify(described)).digest('hex')
}
