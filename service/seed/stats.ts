import type { HistoryPlan } from "./history";
import { providerOf, type ProviderKey } from "./providers";

export type ProviderFigures = { sent: number; delivered: number; bounced: number; complained: number; rejected: number; opened: number; clicked: number };
export type HistoryFigures = {
  messages: number;
  events: number;
  byProvider: Record<ProviderKey, ProviderFigures>;
  total: ProviderFigures;
  deferred: number;
  inbound: number;
  threads: number;
  scheduled: number;
  links: Map<string, number>;
};

const empty = (): ProviderFigures => ({ sent: 0, delivered: 0, bounced: 0, complained: 0, rejected: 0, opened: 0, clicked: 0 });

/**
 * The figures a dashboard would show for a history: per provider, outbound messages that left
 * the queue ("sent", scheduled ones not yet), and how many were delivered (complaints were
 * delivered first), bounced, opened, clicked. Used by the seed's log line and the tests.
 */
export function historyFigures(plan: Pick<HistoryPlan, "messages" | "events">): HistoryFigures {
  const kinds = new Map<string, Set<string>>();
  const links = new Map<string, number>();
  for (const e of plan.events) {
    let set = kinds.get(e.messageId);
    if (!set) kinds.set(e.messageId, (set = new Set()));
    set.add(e.type);
    if (e.type === "click") links.set(String(e.data.link), (links.get(String(e.data.link)) ?? 0) + 1);
  }
  const byProvider = Object.fromEntries((["gmail", "microsoft", "yahoo", "apple", "other"] as const).map((k) => [k, empty()])) as Record<ProviderKey, ProviderFigures>;
  const total = empty();
  const threads = new Map<string, number>();
  let inbound = 0;
  let scheduled = 0;
  let deferred = 0;
  for (const m of plan.messages) {
    threads.set(m.threadId, (threads.get(m.threadId) ?? 0) + 1);
    if (m.direction === "inbound") {
      inbound++;
      continue;
    }
    if (m.status === "queued") {
      scheduled++;
      continue;
    }
    const seen = kinds.get(m.id) ?? new Set();
    const figures = byProvider[providerOf(m.to[0].email.split("@")[1])];
    for (const f of [figures, total]) {
      f.sent++;
      if (m.status === "delivered" || m.status === "complained") f.delivered++;
      if (m.status === "bounced") f.bounced++;
      if (m.status === "complained") f.complained++;
      if (m.status === "rejected") f.rejected++;
      if (seen.has("open")) f.opened++;
      if (seen.has("click")) f.clicked++;
    }
    if (seen.has("delivery_delayed")) deferred++;
  }
  return {
    messages: plan.messages.length, events: plan.events.length, byProvider, total, deferred, inbound,
    threads: [...threads.values()].filter((n) => n > 1).length, scheduled, links,
  };
}

const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : "–");

/** One line per provider: sent, bounce rate, open and click rates (of delivered). */
export function describeFigures(f: HistoryFigures): string[] {
  return Object.entries({ ...f.byProvider, all: f.total }).map(([key, p]) =>
    `${key.padEnd(9)} sent ${String(p.sent).padStart(5)}  bounced ${pct(p.bounced, p.sent).padStart(7)}  opened ${pct(p.opened, p.delivered).padStart(7)}  clicked ${pct(p.clicked, p.delivered).padStart(7)}  complaints ${p.complained}  rejected ${p.rejected}`);
}
