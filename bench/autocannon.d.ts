declare module 'autocannon' {
  type Result = {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    '2xx'?: number
    '3xx'?: number
    errors: number
    timeouts: number
  }
  /** The request autocannon is about to send; setupRequest may change its path. */
  type Request = { path: string; method?: string; headers?: Record<string, string>; body?: string }
  function autocannon(options: {
    url: string
    connections?: number
    duration?: number
    headers?: Record<string, string>
    timeout?: number
    requests?: { setupRequest?: (req: Request) => Request }[]
  }): Promise<Result>
  export default autocannon
}
