/**
 * The SQLite engine's text search, one room with this one entry (.dependency-cruiser.cjs): the
 * ranker the content store asks for a query's ordered matches (./textRanking), the count of
 * public rows it ranks among (./searchCorpus), and the FTS phrase of a query (./wordReading).
 * Everything else here (corpus, postings, word scores and their caches, match groups, the paged
 * integer lists) is the ranker's own.
 */
export { textRanker } from './textRanking'
export { publicRowCount } from './searchCorpus'
export { ftsPhrase } from './wordReading'
