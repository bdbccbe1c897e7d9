/**
 * The local service refuses webhooks to this machine by default (SSRF), yet the dashboard's
 * own event stream is a webhook to the dashboard's ingest route (under PUBLIC_URL, on this
 * machine). The service that npm start and the test harness run is therefore told to allow
 * exactly that host, added to any SERVICE_WEBHOOK_ALLOW_HOSTS already set.
 */
export function allowDashboardWebhooks<T extends Record<string, string | undefined>>(settings: T, allowed: string): T & { SERVICE_WEBHOOK_ALLOW_HOSTS: string } {
  const existing = (settings.SERVICE_WEBHOOK_ALLOW_HOSTS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const hosts = existing.includes(allowed) ? existing : [...existing, allowed];
  return { ...settings, SERVICE_WEBHOOK_ALLOW_HOSTS: hosts.join(",") };
}

/** `host:port` of the dashboard as the service reaches it: PUBLIC_URL, or localhost on PORT. */
export function dashboardHost(settings: Record<string, string | undefined>): string {
  return new URL(settings.PUBLIC_URL || `http://localhost:${settings.PORT || "3000"}`).host;
}
