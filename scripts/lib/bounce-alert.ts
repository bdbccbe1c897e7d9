import { randomBytes } from "node:crypto";
import type { ServiceAccess } from "./service-api";
import { verifiedDomain } from "./service-api";

/**
 * Pushes a project over the bounce-rate limit the way e2e/alerts.spec.ts does: sandbox
 * addresses that bounce (bounce+…@yahoo.com), enough for 5 % of the last 24 hours the dashboard
 * counts, so its alert banner shows. The stack (scripts/lib/stack.ts) sets ALERT_MIN_VOLUME=10,
 * and checks every 2 s when started with `fastAlerts`. With the demo's month still arriving the 24-hour count grows under us,
 * so it sends again, at most `rounds` times, until the dashboard reports the alert.
 */
export async function raiseBounceAlert(o: { baseURL: string; cookie: string; access: ServiceAccess; rounds?: number; waitMs?: number }): Promise<void> {
  const { baseURL, cookie, access } = o;
  const api = async <T>(p: string): Promise<T> => {
    const res = await fetch(`${baseURL}/api/p/${encodeURIComponent(access.project)}${p}`, { headers: { Cookie: cookie } });
    if (!res.ok) throw new Error(`GET ${p}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const domain = await verifiedDomain(access);
  const tag = randomBytes(3).toString("hex");
  for (let round = 0; round < (o.rounds ?? 5); round++) {
    if (await bounceLimitActive(api)) return;
    const { sent, bounced } = (await api<{ counts: { "24h": { sent: number; bounced: number } } }>("/overview?range=24h")).counts["24h"];
    // Bounces b with (bounced + b) / (sent + b) ≥ 5 %, a few over; at most 100 a round (one batch call).
    const needed = Math.min(100, Math.max(12, Math.ceil((0.05 * sent - bounced) / 0.95) + 4));
    const emails = Array.from({ length: needed }, (_, i) => ({
      from: { email: `bench@${domain}`, name: "Benchmark" },
      to: [{ email: `bounce+${tag}${round}-${i}@yahoo.com` }],
      subject: `Benchmark bounce ${tag} ${round}-${i}`,
      text: "Hello.",
    }));
    const res = await fetch(`${access.serviceURL}/v1/emails/batch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${access.key}`, "X-Service-Product": access.project, "Content-Type": "application/json" },
      body: JSON.stringify({ emails }),
    });
    if (res.status !== 207) throw new Error(`POST /v1/emails/batch: HTTP ${res.status} ${await res.text()}`);
    const deadline = Date.now() + (o.waitMs ?? 30_000);
    while (Date.now() < deadline) {
      if (await bounceLimitActive(api)) return;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  throw new Error(`the bounce-rate alert of ${access.project} was not raised after ${o.rounds ?? 5} rounds of bounces`);
}

/** Whether the dashboard reports the bounce-rate limit crossed now (what the banner shows). */
async function bounceLimitActive(api: <T>(p: string) => Promise<T>): Promise<boolean> {
  const { active } = await api<{ active: { metric: string; level: string }[] }>("/alerts/active");
  return active.some((a) => a.metric === "bounce" && a.level === "limit");
}
