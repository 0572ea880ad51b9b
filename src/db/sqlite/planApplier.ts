/**
 * The one SQLite applier of workflow write plans (src/db/writePlan.ts): a plan's steps as SQL
 * on the service's connection, in one BEGIN IMMEDIATE transaction (the write lock taken up
 * front, so it never fails half-way on a lock upgrade; another process's lock waited for on a
 * timer, ./writeLock), under this process's write gate. The
 * raw_versions triggers move the change counters in the same transaction.
 */
import {
  type Condition,
  DONE,
  type Fields,
  type PlanResult,
  PlanStop,
  Ref,
  resolveField,
  sameMembers,
  type Step,
  type Target,
  type Value,
  type Where,
  type WritePlan,
} from '../writePlan'
import { uniqueViolationFieldSqlite as uniqueViolationField } from './uniqueViolation'
import { connection } from './connection'
import { outboxDb } from './followUpOutbox'
import { immediateTransaction } from './writeLock'
import { TABLES } from './tables'

type Db = ReturnType<typeof connection>

const TARGET_TABLES: Record<Target, string> = {
  content: TABLES.content,
  tags: TABLES.tags,
  surfaces: TABLES.surfaces,
  groups: TABLES.groups,
  channels: TABLES.channels,
  platforms: TABLES.platforms,
  facets: TABLES.facets,
  'refresh-tokens': TABLES.refreshTokens,
  'moderation-events': TABLES.moderationEvents,
  'tag-renames': TABLES.tagRenames,
  'slug-claims': TABLES.slugClaims,
  'follow-ups': 'raw_follow_ups',
}

/** Instants the outbox stores as epoch milliseconds (compared as numbers); everything else is ISO text, as Payload stores dates. */
const EPOCH_COLUMNS = new Set(['raw_follow_ups.next_run_at', 'raw_follow_ups.claimed_until'])

const FIELD = /^[a-zA-Z]+$/

/** Payload's column for a field: snake_case, `<field>_id` for a relationship. */
function column(field: string, value: Value | undefined): string {
  if (!FIELD.test(field)) throw new Error(`A plan field must be an identifier: "${field}"`)
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  return value instanceof Ref && field !== 'id' ? `${snake}_id` : snake
}

function stored(table: string, col: string, v: Value): string | number | null {
  if (v instanceof Ref) return v.id
  if (v instanceof Date) return EPOCH_COLUMNS.has(`${table}.${col}`) ? v.getTime() : v.toISOString()
  if (typeof v === 'boolean') return v ? 1 : 0
  return v
}

type Sql = { text: string; args: (string | number | null)[] }

const isComparison = (c: Condition): c is Exclude<Condition, Value> =>
  typeof c === 'object' && c !== null && !(c instanceof Ref) && !(c instanceof Date)

function whereSql(table: string, where: Where): Sql {
  const parts: string[] = []
  const args: Sql['args'] = []
  for (const [field, cond] of Object.entries(where)) {
    if (!isComparison(cond)) {
      const col = column(field, cond)
      const v = stored(table, col, cond)
      parts.push(v === null ? `${col} IS NULL` : `${col} = ?`)
      if (v !== null) args.push(v)
    } else if ('ne' in cond) {
      // IS NOT: a NULL passes, as an absent field does on MongoDB.
      const col = column(field, cond.ne)
      parts.push(`${col} IS NOT ?`)
      args.push(stored(table, col, cond.ne))
    } else {
      const [op, v] = 'lt' in cond ? ['<', cond.lt] : 'lte' in cond ? ['<=', cond.lte] : ['>=', cond.gte]
      const col = column(field, v)
      const test = `${col} ${op} ?`
      parts.push('orNull' in cond && cond.orNull ? `(${col} IS NULL OR ${test})` : test)
      args.push(stored(table, col, v))
    }
  }
  return { text: parts.length ? parts.join(' AND ') : '1', args }
}

function setSql(table: string, set: Fields, inc: Record<string, number> | undefined, counts: readonly number[]): Sql {
  const parts: string[] = []
  const args: Sql['args'] = []
  for (const [field, raw] of Object.entries(set)) {
    const v = resolveField(raw, counts)
    const col = column(field, v)
    parts.push(`${col} = ?`)
    args.push(stored(table, col, v))
  }
  for (const [field, by] of Object.entries(inc ?? {})) {
    const col = column(field, by)
    parts.push(`${col} = ${col} + ?`)
    args.push(by)
  }
  return { text: parts.join(', '), args }
}

const changes = (r: { changes: number | bigint }) => Number(r.changes)

/** One step; its count (rows matched), and the claimed row of a claim. */
function runStep(db: Db, step: Step, counts: readonly number[], result: PlanResult): number {
  const table = TARGET_TABLES[step.target]
  switch (step.op) {
    case 'update': {
      const s = setSql(table, step.set, step.inc, counts)
      const w = whereSql(table, step.where)
      const n = changes(db.prepare(`UPDATE "${table}" SET ${s.text} WHERE ${w.text}`).run(...s.args, ...w.args))
      if (step.one !== undefined && n !== 1) throw new PlanStop(step.one)
      return n
    }
    case 'insert': {
      const entries = Object.entries(step.values).map(([field, raw]) => {
        const v = resolveField(raw, counts)
        const col = column(field, v)
        return [col, stored(table, col, v)] as const
      })
      const keys = step.unlessExists?.map((f) => column(f, resolveField(step.values[f]!, counts)))
      const conflict = keys ? ` ON CONFLICT (${keys.join(', ')}) DO NOTHING` : ''
      const sql = `INSERT INTO "${table}" (${entries.map(([c]) => c).join(', ')}) VALUES (${entries.map(() => '?').join(', ')})${conflict}`
      return changes(db.prepare(sql).run(...entries.map(([, v]) => v)))
    }
    case 'delete': {
      const w = whereSql(table, step.where)
      return changes(db.prepare(`DELETE FROM "${table}" WHERE ${w.text}`).run(...w.args))
    }
    case 'replaceInArray': {
      const col = column(step.field, step.from)
      const s = setSql(table, step.set, undefined, counts)
      // Inside each JSON array: the element replaced in place, the array's order kept.
      const sql = `UPDATE "${table}" AS t SET
          ${col} = (SELECT json_group_array(CASE WHEN j.value = ? THEN ? ELSE j.value END) FROM json_each(t.${col}) AS j)
          ${s.text ? `, ${s.text}` : ''}
        WHERE EXISTS (SELECT 1 FROM json_each(t.${col}) AS j WHERE j.value = ?)`
      return changes(db.prepare(sql).run(step.from, step.to, ...s.args, step.from))
    }
    case 'expectIds': {
      const w = whereSql(table, step.where)
      const rows = db.prepare(`SELECT id FROM "${table}" WHERE ${w.text}`).all(...w.args) as { id: string }[]
      const actual = rows.map((r) => String(r.id))
      if (!sameMembers(actual, step.ids)) throw new PlanStop(step.otherwise, actual)
      return actual.length
    }
    case 'claimOne': {
      const s = setSql(table, step.set, step.inc, counts)
      const w = whereSql(table, step.where)
      const read = step.read.map((f) => `${column(f, undefined)} AS "${f}"`).join(', ')
      // The write lock is held before the inner SELECT reads: one claimer gets a given row.
      const sql = `UPDATE "${table}" SET ${s.text}
        WHERE id = (SELECT id FROM "${table}" WHERE ${w.text} ORDER BY ${column(step.oldest, undefined)} LIMIT 1)
        RETURNING ${read}`
      const row = db.prepare(sql).get(...s.args, ...w.args) as PlanResult['claimed'] | undefined
      result.claimed = row ?? null
      return row ? 1 : 0
    }
  }
}

/** Runs the plan in one immediate transaction; the caller holds the write gate. */
export async function applyPlanSqlite(file: string, plan: WritePlan): Promise<PlanResult> {
  const db = plan.steps.some((s) => s.target === 'follow-ups') ? outboxDb(file) : connection(file)
  const result: PlanResult = { outcome: DONE, counts: [] }
  // Another process's write lock is waited for on a timer (./writeLock). Other requests' reads on
  // this connection may run between the BEGIN and the steps: they see none of the plan, whose
  // steps and commit run in one synchronous stretch (this process's writers wait on its gate).
  try {
    return await immediateTransaction(db, () => {
      plan.steps.forEach((step, index) => {
        result.counts.push(runStep(db, step, result.counts, result))
        plan.afterStep?.(index)
      })
      return result
    })
  } catch (err) {
    if (err instanceof PlanStop) return { outcome: err.outcome, counts: result.counts, ...(err.actual ? { actual: err.actual } : {}) }
    if (plan.onUnique !== undefined && uniqueViolationField(err) !== undefined) return { outcome: plan.onUnique, counts: result.counts }
    throw err
  }
}
