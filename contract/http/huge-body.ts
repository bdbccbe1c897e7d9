/**
 * A request body far larger than any limit, produced lazily: nothing exists until the reader
 * pulls it, so `pulled()` is exactly how much the code under test read. A server that reads a
 * chunked body whole before checking its size pulls all of it; one that stops at the limit
 * pulls the limit and a chunk or two.
 */
export function hugeBody(totalBytes: number, chunkBytes = 64 * 1024): { stream: ReadableStream<Uint8Array>; pulled: () => number; cancelled: () => boolean } {
  const chunk = new Uint8Array(chunkBytes).fill(0x61); // "aaaa…": valid text, invalid JSON
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled >= totalBytes) return controller.close();
        const size = Math.min(chunkBytes, totalBytes - pulled);
        pulled += size;
        controller.enqueue(size === chunkBytes ? chunk.slice() : chunk.slice(0, size));
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}
