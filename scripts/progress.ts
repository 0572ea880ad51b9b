/**
 * Progress of long command-line work (seed, bench, backup) on stderr: a cli-progress bar on
 * a terminal, plain lines elsewhere (CI, pipes, a log file), at most one every few seconds
 * plus each finishing step, so a log stays readable.
 */
import cliProgress from 'cli-progress'

export type Progress = {
  /** `done` of `total` units of the current phase. */
  update(done: number): void
  /** A step without a count (building an index); ends the bar if one is shown. */
  step(name: string): void
  stop(): void
}

const PLAIN_EVERY_MS = 3000

export function progress(label: string, total: number, unit = 'items'): Progress {
  const started = Date.now()
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: process.stderr,
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted} elapsed, eta {eta_formatted}`,
        etaBuffer: 50,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    )
    bar.start(total, 0)
    let active = true
    const stop = () => {
      if (active) bar.stop()
      active = false
    }
    return {
      update: (done) => active && bar.update(done),
      step: (name) => {
        stop()
        process.stderr.write(`${label}: ${name}… (${elapsed()})\n`)
      },
      stop,
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
    step: (name) => process.stderr.write(`${label}: ${name}… (${elapsed()})\n`),
    stop: () => process.stderr.write(`${label}: done (${elapsed()})\n`),
  }
}
