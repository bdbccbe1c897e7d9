/**
 * The local service refuses webhooks to this machine by default (SSRF), yet the dashboard's
 * own event stream is a webhook to the dashboard's ingest route (under PUBLIC_URL, on this
 * machine). The service that npm start runs is therefore told to allow exactly the ingest
 * route's URLs — the host, the port and the path `/api/ingest/` — added to any
 * SERVICE_WEBHOOK_ALLOW_HOSTS already set. A webhook any key creates cannot reach the rest
 * of the dashboard (its sign-in or admin routes) from the service.
 */
export function allowDashboardWebhooks<T extends Record<string, string | undefined>>(settings: T, allowed: string): T & { SERVICE_WEBHOOK_ALLOW_HOSTS: string } {
  const existing = (settings.SERVICE_WEBHOOK_ALLOW_HOSTS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const hosts = existing.includes(allowed) ? existing : [...existing, allowed];
  return { ...settings, SERVICE_WEBHOOK_ALLOW_HOSTS: hosts.join(",") };
}

/** The allow-list entry of the dashboard's ingest URLs as the service reaches them: PUBLIC_URL (or localhost on PORT), `/api/ingest/` below its path. */
export function dashboardIngestEntry(settings: Record<string, string | undefined>): string {
  const url = new URL(settings.PUBLIC_URL || `http://localhost:${settings.PORT || "3000"}`);
  // As lib/server/event-stream/connect.ts's ingestUrl builds it.
  return `${url.host}${url.pathname.replace(/\/+$/, "")}/api/ingest/`;
}
