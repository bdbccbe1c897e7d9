/**
 * Reading a request body with a byte cap, shared by the dashboard (parseBody, the ingest
 * route) and the local service (its body-limit middleware). No "server-only" import and no
 * Next dependency, so both programs can use it.
 *
 * `req.text()` collects a chunked body whole before anyone can look at its size: one 400 MB
 * upload cost the server 1.2 GB before the 413. Here the stream is read chunk by chunk and
 * cancelled as soon as the count passes the limit, so memory stays at the limit plus one chunk.
 */

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The request body is larger than ${formatBytes(limit)}.`);
    this.name = "BodyTooLargeError";
  }
}

/** "20 MB", "512 KB": limits as the README and the error messages state them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** The declared Content-Length when it is a plain number (chunked bodies have none). */
export function declaredLength(headers: Headers): number | null {
  const value = headers.get("content-length");
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * The body's bytes, at most `limit` of them; more throws BodyTooLargeError after reading at
 * most `limit` bytes plus the chunk that crossed it. A declared Content-Length over the limit
 * is refused before anything is read.
 */
export async function readBodyBytes(req: Pick<Request, "headers" | "body">, limit: number): Promise<Uint8Array> {
  const declared = declaredLength(req.headers);
  if (declared !== null && declared > limit) {
    await req.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(limit);
  }
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stops the producer: nothing more of this body is pulled into memory.
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The body as text (UTF-8; malformed bytes become U+FFFD, as `req.text()` does), capped like readBodyBytes. */
export async function readBodyText(req: Request, limit: number): Promise<string> {
  return new TextDecoder().decode(await readBodyBytes(req, limit));
}
