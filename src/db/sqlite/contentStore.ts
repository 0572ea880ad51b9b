/**
 * The SQLite content store: parameterized SQL on the service's own connection with cached
 * prepared statements. Lists use raw_* indexes, the tag side table and FTS5 (contentSchema).
 */
import { hexIdFactory } from '../ids'
import { countCache, VersionedCache } from '../freshness'
import { isPublicView, perView, viewOf, type ContentView } from '../freshness'
import type {
  ContentListQuery,
  ContentPage,
  ContentRecord,
  ContentStore,
  NewContent,
  NewTag,
  TagListQuery,
  TagRecord,
} from '../contentTypes'
import { indexedTerms } from '../searchTerms'
import type { RowFreshness } from '../freshness'
import { RowRecords } from '../freshness'
import { valueFilters } from '../contentRecord'
import { bulkLoadContent } from './bulkLoad'
import { connection, serviceReader, statement, withBulkCache } from './connection'
import { inSlices } from '../../platform/loopSlices'
import { checkContentSchema, FTS_TABLE, HIDDEN_FTS_TABLE, repairContentIndexes } from './contentSchema'
import { ftsPhrase, publicRowCount, textRanker } from './search'
import { TABLES } from './tables'
import { backfillUrlKeysSqlite } from './urlKeys'
import { CONTENT_COLUMNS, contentInsertArgs, contentInsertSql, type Row, toRecord } from './contentRows'

const CONTENT = TABLES.content
const TAGS = TABLES.tags

const COLUMNS = CONTENT_COLUMNS

/** A rename here is one transaction: no item ever holds a slug that is not a tag's. */
const NO_HIDDEN_SLUGS: ReadonlySet<string> = new Set()

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/** FTS5 query: each term quoted (no operator injection), any term matches, bm25 ranks. */
const ftsQuery = (terms: string[]) => terms.map(ftsPhrase).join(' OR ')

type Built = { from: string; where: string; args: unknown[]; ranked: boolean }


/** Any filter besides the text terms and the public view. */
const hasOtherFilters = (q: ContentListQuery) =>
  !!(q.text?.shortTerms.length || q.approvedSince || q.submittedBy || q.createdBefore || q.groupIds || q.channelIds || q.platformIds || q.tags || q.urlKey !== undefined || q.values)

function buildFilter(q: ContentListQuery): Built {
  const where: string[] = []
  const args: unknown[] = []
  let from = `${CONTENT} c`
  let ranked = false
  const terms = indexedTerms(q.text?.terms ?? [])
  if (terms.length > 0) {
    if (isPublicView(q)) {
      from = `${FTS_TABLE} f JOIN ${CONTENT} c ON c.rowid = f.rowid`
      where.push(`${FTS_TABLE} MATCH ?`)
      args.push(ftsQuery(terms))
    } else {
      // Moderators' views: both indexes, each row ranked by its own index's bm25 (./contentSchema).
      from = `(SELECT rowid, rank FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ?
               UNION ALL SELECT rowid, rank FROM ${HIDDEN_FTS_TABLE} WHERE ${HIDDEN_FTS_TABLE} MATCH ?) f JOIN ${CONTENT} c ON c.rowid = f.rowid`
      args.push(ftsQuery(terms), ftsQuery(terms))
    }
    ranked = true
  } else if (q.text?.terms.length) {
    where.push('0') // only stop words: nothing matches (../searchTerms)
  }
  for (const t of q.text?.shortTerms ?? []) {
    where.push("c.title LIKE ? ESCAPE '\\'")
    args.push(`%${t.replace(/[\\%_]/g, (m) => `\\${m}`)}%`)
  }
  if (q.statuses !== 'all') {
    where.push(`c.status IN (${marks(q.statuses.length)})`)
    args.push(...q.statuses)
  }
  if (!q.includeInactive) where.push('c.is_active = 1')
  if (q.approvedSince) {
    where.push('c.approved_at >= ?')
    args.push(q.approvedSince)
  }
  if (q.urlKey !== undefined) {
    where.push('c.url_key = ?')
    args.push(q.urlKey)
  }
  if (q.submittedBy) {
    where.push('c.submitted_by_id = ?')
    args.push(q.submittedBy)
  }
  if (q.createdBefore) {
    where.push('c.created_at <= ?')
    args.push(q.createdBefore)
  }
  for (const [column, ids] of [
    ['c.group_id', q.groupIds],
    ['c.channel_id', q.channelIds],
    ['c.platform_id', q.platformIds],
  ] as const) {
    if (ids) {
      where.push(`${column} IN (${marks(ids.length)})`)
      args.push(...ids)
    }
  }
  for (const [field, values] of valueFilters(q)) {
    where.push(`c.${field.sqlite} IN (${marks(values.length)})`)
    args.push(...values)
  }
  if (q.tags) {
    where.push(`c.rowid IN (SELECT content_rowid FROM raw_content_tags WHERE tag IN (${marks(q.tags.length)}))`)
    args.push(...q.tags)
  }
  return { from, where: where.length ? `WHERE ${where.join(' AND ')}` : '', args, ranked }
}

/** SQL-ranked searches (moderators' views) keep at most this many rowids; deeper pages query directly. */
const RANKED_CAP = 20_000
/**
 * Public relevance orders are cut to the first `need` rows, in steps of this many: one step
 * serves the first pages of a query; a deeper page (offset + limit past it) asks for more.
 */
const RANKED_STEP = 200
/** A search's order (rowids) and, when known, its total. */
type SearchOrder = { order: Int32Array; total: number | undefined }

const ORDER: Record<ContentListQuery['sort'], string> = {
  newest: 'c.approved_at DESC, c.id DESC',
  oldest: 'c.approved_at ASC, c.id ASC',
  alpha: 'c.title ASC, c.id ASC',
  submittedNewest: 'c.created_at DESC, c.id DESC',
  submittedOldest: 'c.created_at ASC, c.id ASC',
  relevance: 'f.rank, c.approved_at DESC, c.id DESC',
}

/** A slug's claim (src/services/slugClaims.ts): its unique index refuses a slug another tag, item or surface holds. */
export const CLAIM_SLUG = `INSERT INTO ${TABLES.slugClaims} (id, slug, entity, owner) VALUES (?, ?, ?, ?)`
/**
 * `contentVersion`: a view's content generation its caches key on (src/db/freshness/generations), a memory
 * read; `rows`: the content rows' marks, so a cached page whose rows changed is read again.
 */
export function sqliteContentStore(file: string, contentVersion: (view: ContentView) => string, rows: () => RowFreshness): ContentStore {
  // This store's own caches (one store per Payload instance: src/db/engine.ts).
  const searchOrders = perView((suffix) => new VersionedCache<SearchOrder>(`search_orders${suffix}`, 200, 2_000_000, (o) => o.order.length + 1))
  /**
   * Totals per view, shared by a list's pages. Whole pages are not kept here: the service keeps each
   * page's serialized answer under the same content version (src/services/content), so a page kept
   * here was asked only after a taxonomy-only change (`npm run bench:caches`: never, in any shape).
   */
  const cachedCount = perView((suffix) => countCache(`list_totals${suffix}`))
  const records = new RowRecords()
  const all = (sql: string, args: unknown[] = []) => {
    const stmt = statement(file, sql)
    return (stmt.all as (...a: unknown[]) => unknown[]).apply(stmt, args) as Row[]
  }
  const get = (sql: string, args: unknown[] = []) => {
    const stmt = statement(file, sql)
    return (stmt.get as (...a: unknown[]) => unknown).apply(stmt, args) as Row | undefined
  }

  // Lists come back as one JSON text per statement: stepping rows one by one through the
  // driver costs several times more than SQLite building the array and JSON.parse reading it.

  /** The `r` column of a query (`SELECT c.rowid AS r …`), in its order. */
  const rowidList = (sql: string, args: unknown[]): number[] =>
    JSON.parse(String(get(`SELECT json_group_array(r) FROM (${sql})`, args)?.[0] ?? '[]')) as number[]

  /**
   * The rows of a page, in the page's order: from the records kept (./rowRecords) while their
   * rows are unmarked, the others read in one statement. After a public write every cached page
   * is read again, and mostly the same rows: a new approval is one new row on the newest page.
   */
  const recordsSql = `SELECT json_group_array(json_array(c.rowid, ${COLUMNS}))
    FROM json_each(?) j JOIN ${CONTENT} c ON c.rowid = j.value`
  const fetchRows = (rowids: ArrayLike<number>): ContentRecord[] =>
    records.read(rowids, rows(), (missing) =>
      (JSON.parse(String(get(recordsSql, [JSON.stringify(missing)])?.[0] ?? '[]')) as Row[]).map((r) => [Number(r[0]), toRecord(r.slice(1))]),
    )

  const ranker = textRanker(file)

  /**
   * The public relevance order of a search, from the ranker's bm25 over cached postings, cut to
   * `need` rows; other filters (short terms, taxonomy, tags, period) keep the matches that
   * pass them before the cut.
   */
  const rankedPublicOrder = async (q: ContentListQuery, version: string, need: number): Promise<SearchOrder> => {
    const passing = hasOtherFilters(q)
      ? (candidates: Int32Array) => {
          const b = buildFilter({ ...q, text: { terms: [], shortTerms: q.text!.shortTerms } })
          const where = `${b.where ? `${b.where} AND` : 'WHERE'} c.rowid IN (SELECT value FROM json_each(?))`
          return new Set(rowidList(`SELECT c.rowid AS r FROM ${b.from} ${where}`, [...b.args, JSON.stringify(Array.from(candidates))]))
        }
      : undefined
    return ranker.rank(version, indexedTerms(q.text!.terms), need, passing)
  }

  /** One page at one data version (read once by the caller, so every cache below agrees). */
  const readPage = async (q: ContentListQuery, version: string): Promise<ContentPage> => {
    const b = buildFilter(q)
    const sort = q.sort === 'relevance' && !b.ranked ? 'newest' : q.sort
    // Two steps: the page's rowids from the (covering) index, then only those rows, so a
    // deep offset skips index entries instead of whole rows.
    let rows: ContentRecord[] = []
    let knownTotal: number | undefined
    const orderSql = `SELECT c.rowid AS r FROM ${b.from} ${b.where} ORDER BY ${ORDER[sort]}`
    if (q.text) {
      // A search scores (or pattern-matches) every candidate whatever the page: do it once
      // per data version and serve the pages, and the total, from the ranked order.
      const fromTermScores = sort === 'relevance' && isPublicView(q)
      const need = Math.max(1, Math.ceil((q.offset + q.limit) / RANKED_STEP)) * RANKED_STEP
      const key = `${orderSql}\u0000${JSON.stringify(b.args)}${fromTermScores ? `\u0000${need}` : ''}`
      const { order, total } = await searchOrders[viewOf(q)].get(version, key, async () => {
        if (fromTermScores) return rankedPublicOrder(q, version, need)
        const order = Int32Array.from(rowidList(`${orderSql} LIMIT ${RANKED_CAP}`, b.args))
        return { order, total: order.length < RANKED_CAP ? order.length : undefined }
      })
      knownTotal = total
      if (q.limit > 0) {
        const page =
          total !== undefined || q.offset + q.limit <= order.length
            ? order.subarray(q.offset, q.offset + q.limit)
            : rowidList(`${orderSql} LIMIT ? OFFSET ?`, [...b.args, q.limit, q.offset])
        rows = fetchRows(page)
      }
    } else if (q.limit > 0) {
      rows = fetchRows(rowidList(`${orderSql} LIMIT ? OFFSET ?`, [...b.args, q.limit, q.offset]))
    }
    if (knownTotal !== undefined) return { rows, total: knownTotal, estimated: false }
    // A short last page already tells the total.
    if (q.limit > 0 && rows.length < q.limit && (rows.length > 0 || q.offset === 0)) {
      return { rows, total: q.offset + rows.length, estimated: false }
    }
    // Every public row, unfiltered (the newest page's total): the public text index's row count.
    if (isPublicView(q) && !q.text && !hasOtherFilters(q)) return { rows, total: publicRowCount(serviceReader(file)), estimated: false }
    const countSql = `SELECT count(*) FROM ${b.from} ${b.where}`
    const total = await cachedCount[viewOf(q)](version, `${countSql}\u0000${JSON.stringify(b.args)}`, async () =>
      Number(get(countSql, b.args)?.[0] ?? 0),
    )
    // Totals here are exact (cached per data version), so estimate=true needs no shortcut.
    return { rows, total, estimated: false }
  }

  return {
    async primeSearch() {
      await ranker.scores(contentVersion('public'), [])
    },

    async prepare() {
      // The objects are the migrations'; what only data can get wrong is repaired here.
      checkContentSchema(connection(file))
      repairContentIndexes(connection(file))
      backfillUrlKeysSqlite(file)
    },

    async listContent(q) {
      // A page read (a search ranked again after a write) waits for the next turn of the event
      // loop once this turn has run a slice (./loopSlices): the pages many connections ask at once
      // after a write no longer run back to back as one block. The rows come from ./rowRecords
      // while unmarked.
      return inSlices(() => readPage(q, contentVersion(viewOf(q))))
    },

    async contentBySlug(slug) {
      const r = get(`SELECT ${COLUMNS} FROM ${CONTENT} c WHERE c.slug = ?`, [slug])
      return r ? toRecord(r) : null
    },

    async contentByUrlKey(urlKey) {
      return all(`SELECT ${COLUMNS} FROM content c WHERE c.url_key = ? ORDER BY c.url_key_ordinal, c.created_at, c.id`, [urlKey]).map(
        toRecord,
      )
    },

    async listSubmissions(q) {
      const where = `WHERE c.submitted_by_id = ?${q.includeInactive ? '' : ' AND c.is_active = 1'}`
      const rows =
        q.limit > 0
          ? all(
              `SELECT ${COLUMNS} FROM ${CONTENT} c ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?`,
              [q.submitterId, q.limit, q.offset],
            ).map(toRecord)
          : []
      const total = Number(get(`SELECT count(*) FROM ${CONTENT} c ${where}`, [q.submitterId])?.[0] ?? 0)
      return { rows, total, estimated: false }
    },

    async contentById(id) {
      const r = get(`SELECT ${COLUMNS} FROM ${CONTENT} c WHERE c.id = ?`, [id])
      return r ? toRecord(r) : null
    },

    async relatedContent(item, limit) {
      const tags = item.tagSlugs
      const tagMarks = marks(Math.max(tags.length, 1))
      const tagArgs = tags.length ? tags : ['\u0000']
      const sql = `SELECT ${COLUMNS},
          (CASE WHEN c.channel_id IS NOT NULL AND c.channel_id = ? THEN 2 ELSE 0 END)
          + (SELECT count(*) FROM raw_content_tags rt WHERE rt.content_rowid = c.rowid AND rt.tag IN (${tagMarks})) AS score
        FROM ${CONTENT} c
        WHERE c.rowid IN (
            SELECT content_rowid FROM raw_content_tags WHERE tag IN (${tagMarks})
            UNION SELECT rowid FROM ${CONTENT} WHERE channel_id = ?)
          AND c.id <> ? AND c.status = 'approved' AND c.is_active = 1
        ORDER BY score DESC, c.approved_at DESC, c.id DESC LIMIT ?`
      return all(sql, [item.channelId, ...tagArgs, ...tagArgs, item.channelId, item.id, limit]).map(toRecord)
    },

    async countContent() {
      return Number(get(`SELECT count(*) FROM ${CONTENT}`)?.[0] ?? 0)
    },

    async listTags(q: TagListQuery) {
      const where: string[] = []
      const args: unknown[] = []
      if (q.facetIds) {
        where.push(`t.facet_id IN (${marks(q.facetIds.length)})`)
        args.push(...q.facetIds)
      }
      if (q.prefix) {
        const pattern = `${q.prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
        where.push("(t.slug LIKE ? ESCAPE '\\' OR t.label LIKE ? ESCAPE '\\')")
        args.push(pattern, pattern)
      }
      const w = where.length ? `WHERE ${where.join(' AND ')}` : ''
      const rows = all(
        `SELECT t.id, t.slug, t.label, t.facet_id, t.created_at, t.updated_at FROM ${TAGS} t ${w}
         ORDER BY t.label ASC, t.slug ASC LIMIT ? OFFSET ?`,
        [...args, q.limit, q.offset],
      ).map(toTag)
      const total = Number(get(`SELECT count(*) FROM ${TAGS} t ${w}`, args)?.[0] ?? 0)
      return { rows, total }
    },

    async tagBySlug(slug) {
      const r = get(`SELECT t.id, t.slug, t.label, t.facet_id, t.created_at, t.updated_at FROM ${TAGS} t WHERE t.slug = ?`, [slug])
      return r ? toTag(r) : null
    },

    async hiddenTagSlugs() {
      return NO_HIDDEN_SLUGS
    },

    async tagUsage(slugs) {
      const out = new Map<string, number>(slugs.map((s) => [s, 0]))
      if (slugs.length === 0) return out
      const rows = all(
        `SELECT rt.tag, count(*) FROM raw_content_tags rt JOIN ${CONTENT} c ON c.rowid = rt.content_rowid
         WHERE rt.tag IN (${marks(slugs.length)}) AND c.status = 'approved' AND c.is_active = 1 GROUP BY rt.tag`,
        slugs,
      )
      for (const r of rows) out.set(r[0] as string, Number(r[1]))
      return out
    },

    async insertContent(rows: NewContent[]) {
      withBulkCache(file, () => {
        const db = connection(file)
        // Copies of a URL already present are numbered after it, as the backfill numbers legacy ones.
        const insert = db.prepare(contentInsertSql(CONTENT))
        // Each item claims its slug (global across tags, content and surfaces) in the same transaction.
        const claim = db.prepare(CLAIM_SLUG)
        const nextId = hexIdFactory()
        const CHUNK = 5000
        for (let i = 0; i < rows.length; i += CHUNK) {
          // One transaction per chunk: fast, and other writers are never locked out for long.
          db.transaction((chunk: NewContent[]) => {
            for (const r of chunk) {
              const id = r.id ?? nextId()
              insert.run(...contentInsertArgs(r, id))
              claim.run(nextId(), r.slug, 'content', id)
            }
          }).immediate(rows.slice(i, i + CHUNK))
        }
        if (rows.length >= 1000) {
          // Merge the text index's many small segments (one per trigger insert) and refresh stats.
          db.exec("INSERT INTO raw_content_fts(raw_content_fts) VALUES ('optimize')")
          db.exec('ANALYZE')
        }
      })
    },

    async bulkLoadContent(batches, progress) {
      return bulkLoadContent(file, batches, progress)
    },

    async insertTags(rows: NewTag[]) {
      const db = connection(file)
      const insert = db.prepare(
        `INSERT INTO ${TAGS} (id, slug, label, facet_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      const claim = db.prepare(CLAIM_SLUG)
      const nextId = hexIdFactory()
      db.transaction((all: NewTag[]) => {
        for (const r of all) {
          const id = r.id ?? nextId()
          insert.run(id, r.slug, r.label, r.facetId, r.createdAt, r.updatedAt)
          claim.run(nextId(), r.slug, 'tag', id)
        }
      }).immediate(rows)
    },
  }
}

function toTag(r: Row): TagRecord {
  return {
    id: r[0] as string,
    slug: r[1] as string,
    label: r[2] as string,
    facetId: (r[3] as string | null) ?? null,
    createdAt: r[4] as string,
    updatedAt: r[5] as string,
  }
}
