declare module 'autocannon' {
  type Result = {
    requests: { average: number; total: number }
    latency: { p50: number; p99: number }
    '2xx'?: number
    '3xx'?: number
    errors: number
    timeouts: number
  }
  function autocannon(options: { url: string; connections?: number; duration?: number; headers?: Record<string, string>; timeout?: number; requests?: { setupRequest?: (req: any) => any }[] }): Promise<Result>
  export default autocannon
}
