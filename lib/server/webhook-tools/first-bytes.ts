import "server-only";

/**
 * The first `limit` bytes of an answer as text, the rest cancelled unread: an endpoint that
 * answers megabytes (or never stops) costs the dashboard `limit` bytes and one chunk.
 */
export async function firstBytes(res: Response, limit: number): Promise<{ text: string; cut: boolean }> {
  if (!res.body) return { text: "", cut: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
    cut = size > limit;
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, limit);
  // A character split by the cut shows as U+FFFD rather than failing.
  return { text: new TextDecoder().decode(bytes), cut };
}
