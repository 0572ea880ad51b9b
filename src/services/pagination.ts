/** A page of a list as services return it; the HTTP edge puts it in the envelope's `pagination`. */
export type Pagination = { offset: number; limit: number; total: number; hasMore: boolean }
