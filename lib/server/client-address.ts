import "server-only";

/**
 * The client's address for throttling. The last X-Forwarded-For entry is the one added by
 * the nearest proxy (Next sets the header itself when there is none), so a client cannot
 * choose it when the dashboard sits behind a proxy that appends to the header.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").map((s) => s.trim()).filter(Boolean).pop();
  return (last ?? headers.get("x-real-ip") ?? "unknown").slice(0, 100);
}
