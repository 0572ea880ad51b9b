/**
 * Whether any process may have committed since the last look, told by the WAL index's header:
 * the first 96 bytes of the `-shm` file, two copies of the header every commit rewrites (its
 * change counter, last frame, salts and checksums; https://sqlite.org/walformat.html, "The
 * WAL-Index Header"). Readers never write there (their marks sit after it), so an unchanged
 * header means no commit, a checkpoint's restart of the log included, since it was read.
 *
 * The change feed (./changeFeed) reads it before its counters, many times a second in every
 * serving process, and skips the counters' query when the bytes are the ones it saw: a read of a
 * small file instead of a statement (docs/benchmarks.md, *Measurements behind the code*). Any
 * doubt answers "moved": no `-shm` file (not in WAL mode, or not yet opened), an error, a short
 * read, or a read that caught a writer halfway (its bytes differ from the last).
 *
 * **Its descriptor is never closed.** SQLite locks the `-shm` file with POSIX advisory locks, and
 * POSIX drops every lock a process holds on a file when the process closes any descriptor of that
 * file: a look that opened and closed the file let another process write beside a transaction
 * open here (https://sqlite.org/howtocorrupt.html, 2.2; test/db/walIndexHeader.test.ts). So one
 * descriptor per file is opened once and kept for the process's life; a file put in its place (a
 * new inode at the path) gets a descriptor of its own, and the old one is left open.
 * test/db/walIndexHeader.test.ts holds the format to the libsql this repository pins.
 */
import { fstatSync, openSync, readSync, statSync } from 'node:fs'

/** Both copies of the header (48 bytes each). */
const HEADER_BYTES = 96

type Kept = { fd: number; ino: number }

/** The process's descriptors by `-shm` path: opened once, never closed (above). */
const descriptors = new Map<string, Kept>()

/** A descriptor of the file now at `shmPath`, undefined when there is none. */
function descriptorOf(shmPath: string): number | undefined {
  let ino: number
  try {
    ino = statSync(shmPath).ino
  } catch {
    return undefined
  }
  const kept = descriptors.get(shmPath)
  if (kept?.ino === ino) return kept.fd
  try {
    const fd = openSync(shmPath, 'r')
    // Opened after the stat: keep it under its own inode, which the next look compares.
    descriptors.set(shmPath, { fd, ino: fstatSync(fd).ino })
    return fd
  } catch {
    return undefined
  }
}

export class WalIndexHeader {
  private readonly read = Buffer.alloc(HEADER_BYTES)
  private readonly seen = Buffer.alloc(HEADER_BYTES)
  private hasSeen = false

  constructor(private readonly shmPath: string) {}

  /** The WAL index of database file `file`. */
  static of(file: string): WalIndexHeader {
    return new WalIndexHeader(`${file}-shm`)
  }

  /** False only when the header is byte for byte the one the last call read. */
  moved(): boolean {
    const fd = descriptorOf(this.shmPath)
    let length = 0
    if (fd !== undefined) {
      try {
        length = readSync(fd, this.read, 0, HEADER_BYTES, 0)
      } catch {
        length = 0
      }
    }
    if (length < HEADER_BYTES) {
      this.hasSeen = false
      return true
    }
    const same = this.hasSeen && this.read.equals(this.seen)
    this.read.copy(this.seen)
    this.hasSeen = true
    return !same
  }
}
