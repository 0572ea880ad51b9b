/**
 * What request code needs from headers: a case-insensitive `get`. Fetch's `Headers`
 * satisfies it, and so does a thin view over Node's already-parsed header object, which
 * spares the server building a `Headers` for every request.
 */
export type HeaderReader = { get(name: string): string | null }

type NodeHeaders = Record<string, string | string[] | undefined>

/** Node lower-cases header names; repeated headers are joined as Fetch would join them. */
export class NodeHeaderReader implements HeaderReader {
  constructor(private readonly headers: NodeHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}
