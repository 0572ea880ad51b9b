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
 * read, or a read that caught a writer halfway (its bytes differ from the last). The file is
 * opened by its path on every look, so a file put in its place is the one read.
 * test/db/walIndexHeader.test.ts holds the format to the libsql this repository pins.
 */
import { closeSync, openSync, readSync } from 'node:fs'

/** Both copies of the header (48 bytes each). */
const HEADER_BYTES = 96

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
    let length: number
    try {
      const fd = openSync(this.shmPath, 'r')
      try {
        length = readSync(fd, this.read, 0, HEADER_BYTES, 0)
      } finally {
        closeSync(fd)
      }
    } catch {
      this.hasSeen = false
      return true
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
