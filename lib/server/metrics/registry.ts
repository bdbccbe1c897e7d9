import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The dashboard's Prometheus series (issue 29), one registry per process: each instance
 * reports its own, a scrape of GET /api/metrics reads it (app/api/metrics/route.ts).
 *
 * Every name starts with PREFIX and follows Prometheus's conventions: base units (seconds),
 * `_total` on counters. Every label has a bounded set of values: a route *pattern*
 * (./route-pattern.ts, unknown paths are "other"), a method, a status, a project's external id
 * (only projects the dashboard has registered), a fixed word. Never a raw path, an address or
 * anything a sender chose.
 *
 * On globalThis: Next bundles instrumentation.ts and the route handlers separately in one
 * process, and the scrape must read the series the request hook and the background work count.
 */
export const PREFIX = "mail_dashboard_";

function build() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const on = { registers: [registry] };
  return {
    registry,
    httpRequests: new Counter({ name: `${PREFIX}http_requests_total`, help: "HTTP requests answered, by route pattern, method and status.", labelNames: ["route", "method", "status"] as const, ...on }),
    httpDuration: new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: "Time from a request's arrival to the end of its answer, by route pattern, method and status.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      ...on,
    }),
    deliveries: new Counter({
      name: `${PREFIX}event_stream_deliveries_total`,
      help: "Event-stream deliveries by project and outcome: recorded, duplicate (every event already taken), unusable (acknowledged, not used), refused (401; or 413, 408, 429 before the body was read).",
      labelNames: ["project", "outcome"] as const,
      ...on,
    }),
    streamMode: new Gauge({
      name: `${PREFIX}event_stream_mode`,
      help: "1 for each project's stream mode as the latest reconciler pass (any instance's) decided it (live, waiting, not_connected, refused, unusable, silent), 0 for the others; every instance reports it.",
      labelNames: ["project", "mode"] as const,
      ...on,
    }),
    batchRows: new Counter({ name: `${PREFIX}batch_rows_total`, help: "Batch rows this instance settled, by job kind (send, contacts, suppressions) and outcome (sent, failed, duplicate, suppressed).", labelNames: ["kind", "outcome"] as const, ...on }),
    pruned: new Counter({ name: `${PREFIX}retention_pruned_rows_total`, help: "Rows removed by retention pruning in this instance's passes, by kind.", labelNames: ["kind"] as const, ...on }),
    prunePasses: new Counter({ name: `${PREFIX}retention_passes_total`, help: "Retention passes this instance ran (a pass another instance held is not counted).", ...on }),
    collectorFailures: new Counter({
      name: `${PREFIX}metrics_collect_failures_total`,
      help: "Scrape-time reads of the database that failed or ran past their time limit, by gauge group.",
      labelNames: ["collector"] as const,
      ...on,
    }),
  };
}

export type Series = ReturnType<typeof build>;
const KEY = Symbol.for("mail-dashboard.metrics");

export function series(): Series {
  const holder = globalThis as { [KEY]?: Series };
  return (holder[KEY] ??= build());
}

/** The registry's text in Prometheus's exposition format, with its content type. */
export async function exposition(): Promise<{ text: string; contentType: string }> {
  const { registry } = series();
  return { text: await registry.metrics(), contentType: registry.contentType };
}
