import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { AppError } from "@/lib/errors";
import { env } from "@/lib/server/env";
import { refreshDatabaseGauges } from "./database-gauges";
import { exposition } from "./registry";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether `authorization` is `Bearer <METRICS_TOKEN>`. Compared as digests of equal length in
 * constant time, so neither the token's length nor how much of it a guess got right shows in
 * the time of the answer.
 */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const given = authorization?.startsWith("Bearer ") ? authorization.slice("Bearer ".length).trim() : "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/**
 * GET /api/metrics: this instance's series in Prometheus's text format. Without METRICS_TOKEN
 * set, or without the right bearer token, a 404 — the same answer as a path that does not
 * exist, so a stranger learns nothing, and nothing is read before the token is checked.
 */
export async function scrapeMetrics(authorization: string | null): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token || !bearerMatches(authorization, token)) throw new AppError(404, "not_found", "Not found.");
  await refreshDatabaseGauges();
  const { text, contentType } = await exposition();
  return new Response(text, { headers: { "Content-Type": contentType } });
}
