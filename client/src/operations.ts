/** Types of each operation, derived from the generated `paths` (schema.d.ts). */
import type { paths } from './schema'

export type Method = 'get' | 'post' | 'patch' | 'put' | 'delete'

/** The paths that have this method. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: unknown } ? P : never
}[keyof paths]

export type Operation<M extends Method, P extends PathsWith<M>> = paths[P] extends { [K in M]: infer O } ? O : never

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never
type SuccessBody<O> = O extends { responses: infer R } ? JsonOf<R[200 & keyof R]> | JsonOf<R[201 & keyof R]> : never

/** The envelope's `data` on success. */
export type DataOf<O> = SuccessBody<O> extends { data: infer D } ? D : never
/** The envelope's `pagination`: present on lists, undefined elsewhere. */
export type PaginationOf<O> = SuccessBody<O> extends { pagination: infer P } ? P : undefined

type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Q : never
type BodyOf<O> = O extends { requestBody?: infer RB } ? (RB extends { content: { 'application/json': infer B } } ? B : never) : never

/** What a call takes: path parameters and a body when the operation requires them. */
export type CallOptions<O> = ([PathParams<O>] extends [never] ? { params?: undefined } : { params: PathParams<O> }) &
  ([QueryParams<O>] extends [never] ? { query?: undefined } : { query?: QueryParams<O> }) &
  ([BodyOf<O>] extends [never] ? { body?: undefined } : O extends { requestBody: unknown } ? { body: BodyOf<O> } : { body?: BodyOf<O> }) & {
    headers?: Record<string, string>
    signal?: AbortSignal
  }

export type Result<O> = { data: DataOf<O>; pagination: PaginationOf<O> }
