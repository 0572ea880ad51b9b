/**
 * Metrics across cluster workers. Each worker keeps its own values; the primary's
 * AggregatorRegistry asks every worker over the cluster IPC channel and sums them (gauges
 * marked otherwise, e.g. the shared queue depth, are not summed). A worker asked for
 * /metrics on the main port forwards the question to the primary here.
 */
import { randomUUID } from 'node:crypto'
import type { Worker } from 'node:cluster'
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client'

import type { MetricsText } from '../src/platform/metrics'

const REQUEST = 'app:metrics-request'
const RESPONSE = 'app:metrics-response'
const TIMEOUT_MS = 5000

type Request = { type: typeof REQUEST; id: string }
type Response = { type: typeof RESPONSE; id: string; ok: boolean; contentType?: string; body?: string }

const isResponse = (m: unknown): m is Response => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === RESPONSE
const isRequest = (m: unknown): m is Request => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === REQUEST

/** Primary: every worker's metrics, summed. */
let aggregator: AggregatorRegistry<PrometheusContentType> | undefined
export async function clusterMetrics(): Promise<MetricsText> {
  aggregator ??= new AggregatorRegistry()
  return { contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }
}

/** Primary: answers a worker's forwarded scrape. */
export function answerMetricsRequests(worker: Worker): void {
  worker.on('message', (message: unknown) => {
    if (!isRequest(message)) return
    clusterMetrics().then(
      ({ contentType, body }) => worker.send({ type: RESPONSE, id: message.id, ok: true, contentType, body } satisfies Response),
      () => worker.send({ type: RESPONSE, id: message.id, ok: false } satisfies Response),
    )
  })
}

/**
 * Worker: answer the primary's scrapes with this process's registry. prom-client installs
 * that listener when an AggregatorRegistry is constructed, in the primary or in a worker.
 */
export function answerPrimaryScrapes(): void {
  new AggregatorRegistry()
}

/** Worker: asks the primary for the cluster's metrics. */
export function askPrimaryForMetrics(): Promise<MetricsText> {
  const id = randomUUID()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error('metrics request timed out')), TIMEOUT_MS)
    const onMessage = (message: unknown) => {
      if (!isResponse(message) || message.id !== id) return
      if (message.ok && message.body !== undefined && message.contentType) done(undefined, { contentType: message.contentType, body: message.body })
      else done(new Error('the primary could not collect metrics'))
    }
    function done(err: Error | undefined, text?: MetricsText) {
      clearTimeout(timer)
      process.off('message', onMessage)
      if (err) reject(err)
      else resolve(text!)
    }
    process.on('message', onMessage)
    process.send?.({ type: REQUEST, id } satisfies Request)
  })
}
