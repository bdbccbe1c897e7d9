import { route } from "@/lib/server/gate/route";
import { scrapeMetrics } from "@/lib/server/metrics/scrape";

/**
 * Prometheus's scrape (issue 29): no session — a bearer token, METRICS_TOKEN, checked by
 * scrapeMetrics; unset or wrong, the route answers 404 as if it did not exist.
 */
export const GET = route(null, async ({ req }) => scrapeMetrics(req.headers.get("authorization")));
