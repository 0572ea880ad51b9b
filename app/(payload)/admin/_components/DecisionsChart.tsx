/** Approvals and rejections per day as a server-rendered SVG bar chart (no chart library). */
import React from 'react'

import type { DailyDecisions } from '../../../../src/services/dashboard'

const W = 640
const H = 160
const PAD = { top: 10, right: 8, bottom: 22, left: 28 }

export function DecisionsChart({ days }: { days: DailyDecisions[] }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.approved, d.rejected)))
  const slot = (W - PAD.left - PAD.right) / days.length
  const bar = Math.max(1, slot / 2 - 1)
  const y = (v: number) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - v / max)
  const base = H - PAD.bottom
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label="Approvals and rejections per day, last 30 days" className="decisions-chart">
      <line x1={PAD.left} x2={W - PAD.right} y1={base} y2={base} stroke="currentColor" strokeOpacity={0.3} />
      <text x={PAD.left - 4} y={PAD.top + 8} fontSize={10} textAnchor="end" fill="currentColor">{max}</text>
      <text x={PAD.left - 4} y={base} fontSize={10} textAnchor="end" fill="currentColor">0</text>
      {days.map((d, i) => {
        const x = PAD.left + i * slot
        return (
          <g key={d.day} data-day={d.day}>
            <title>{`${d.day}: ${d.approved} approved, ${d.rejected} rejected`}</title>
            <rect x={x} y={y(d.approved)} width={bar} height={base - y(d.approved)} fill="#16a34a" />
            <rect x={x + bar + 1} y={y(d.rejected)} width={bar} height={base - y(d.rejected)} fill="#dc2626" />
            {(i % 7 === 0 && i < days.length - 4) || i === days.length - 1 ? (
              <text x={x + bar} y={H - 6} fontSize={10} textAnchor="middle" fill="currentColor">{d.day.slice(5)}</text>
            ) : null}
          </g>
        )
      })}
    </svg>
  )
}
