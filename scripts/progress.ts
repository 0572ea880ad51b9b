/**
 * Progress of long command-line work (seed, bench, backup) on stderr: a cli-progress bar on
 * a terminal (notes print above it), plain lines elsewhere (CI, pipes, a log file), at most
 * one every few seconds plus every note, so a log stays readable.
 */
import cliProgress from 'cli-progress'

export type Progress = {
  /** `done` of `total` units. */
  update(done: number): void
  /** A line of its own: a finishing step (building an index), a measured row. */
  step(text: string): void
  stop(): void
}

const PLAIN_EVERY_MS = 3000

export function progress(label: string, total: number, unit = 'items'): Progress {
  const started = Date.now()
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`
  if (process.stderr.isTTY) {
    const bars = new cliProgress.MultiBar(
      {
        stream: process.stderr,
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted} elapsed, eta {eta_formatted}`,
        etaBuffer: 50,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    )
    const bar = bars.create(total, 0)
    let active = true
    return {
      update: (done) => active && bar.update(done),
      step: (text) => active && bars.log(`${label}: ${text} (${elapsed()})\n`),
      stop: () => {
        if (active) bars.stop()
        active = false
      },
    }
  }
  let last = 0
  return {
    update(done) {
      const now = Date.now()
      if (done < total && now - last < PLAIN_EVERY_MS) return
      last = now
      const pct = total > 0 ? Math.floor((done / total) * 100) : 100
      process.stderr.write(`${label}: ${done}/${total} ${unit} (${pct}%, ${elapsed()})\n`)
    },
    step: (text) => process.stderr.write(`${label}: ${text} (${elapsed()})\n`),
    stop: () => process.stderr.write(`${label}: done (${elapsed()})\n`),
  }
}
