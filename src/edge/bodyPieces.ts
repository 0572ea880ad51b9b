/**
 * The pieces of a request body stream, read one at a time. Stopping early releases the stream
 * without cancelling it: the guard reads a clone, and a clone's cancel waits until its twin (the
 * body Payload would read) is cancelled too, which nobody does once the request is refused: a
 * `break` out of the stream's own iterator hung the request.
 */
export async function* bodyPieces(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}
