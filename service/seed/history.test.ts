import { describe, expect, it } from "vitest";
import { loadTemplateFiles } from "../lib/template-files";
import { generateHistory, PROFILES, type HistoryPlan, type HistoryProfile } from "./history";
import { COMPANY_DOMAINS } from "./providers";
import { historyFigures } from "./stats";

const DAY = 86_400_000;
const files = loadTemplateFiles();
const templates = Object.fromEntries(files.map((f) => [f.slug, { id: `tmpl_${f.slug}`, subject: f.subject, html: f.html, text: f.text }])) as Parameters<typeof generateHistory>[0]["templates"];
const generate = (now: Date, profile: HistoryProfile = PROFILES.production, seed = 7) =>
  generateHistory({ seed, now, days: 30, projectId: "prj_demo", domain: "acme.test", fromName: "Acme", templates, profile });

// Three start times (a weekday morning, a Sunday night, a Tuesday afternoon), so the
// properties hold whenever the demo is seeded, not only for one lucky moment.
const NOWS = [new Date("2026-11-20T10:30:00Z"), new Date("2026-11-29T23:50:00Z"), new Date("2027-03-02T15:05:00Z")];
const plans = NOWS.map((now) => ({ now, plan: generate(now) }));
const rate = (part: number, whole: number) => part / whole;
const eventsOf = (plan: HistoryPlan) => {
  const map = new Map<string, HistoryPlan["events"]>();
  for (const e of plan.events) map.set(e.messageId, [...(map.get(e.messageId) ?? []), e]);
  return map;
};

describe("the demo history generator", () => {
  it("is deterministic: the same seed and start time give the same month, another seed another", () => {
    const again = generate(NOWS[0]);
    expect(again.messages).toEqual(plans[0].plan.messages);
    expect(again.events).toEqual(plans[0].plan.events);
    expect(again.suppressions).toEqual(plans[0].plan.suppressions);
    const other = generate(NOWS[0], PROFILES.production, 8);
    expect(other.messages.map((m) => m.id)).not.toEqual(plans[0].plan.messages.map((m) => m.id));
  });

  it.each(plans.map((p, i) => [NOWS[i].toISOString(), p] as const))("has a believable volume and rhythm (now = %s)", (_, { now, plan }) => {
    const f = historyFigures(plan);
    expect(f.messages).toBeGreaterThan(1800);
    expect(f.messages).toBeLessThan(2700);
    expect(f.events / f.messages).toBeGreaterThan(4.5);
    expect(f.events / f.messages).toBeLessThan(6.5);
    const outbound = plan.messages.filter((m) => m.direction === "outbound" && !m.scheduledAt);
    for (const m of plan.messages) {
      if (m.scheduledAt) continue;
      expect(m.createdAt.getTime()).toBeGreaterThan(now.getTime() - 30 * DAY);
      expect(m.createdAt.getTime()).toBeLessThan(now.getTime());
    }
    // Every UTC day of a 30-day chart has mail except, at most, the two cut by the window's edges.
    const days = new Map<string, number>();
    for (const m of outbound) days.set(m.createdAt.toISOString().slice(0, 10), (days.get(m.createdAt.toISOString().slice(0, 10)) ?? 0) + 1);
    expect(days.size).toBeGreaterThanOrEqual(29);
    // Weekdays are busier than weekends, afternoons than nights (UTC).
    const fullDays = [...days].filter(([d]) => d !== now.toISOString().slice(0, 10) && new Date(d).getTime() > now.getTime() - 29 * DAY);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const weekend = mean(fullDays.filter(([d]) => [0, 6].includes(new Date(d).getUTCDay())).map(([, n]) => n));
    const weekday = mean(fullDays.filter(([d]) => ![0, 6].includes(new Date(d).getUTCDay())).map(([, n]) => n));
    expect(weekday / weekend).toBeGreaterThan(1.3);
    const hourCount = (from: number, to: number) => outbound.filter((m) => m.createdAt.getUTCHours() >= from && m.createdAt.getUTCHours() < to).length;
    expect(hourCount(13, 17)).toBeGreaterThan(2.5 * hourCount(1, 5));
  });

  it.each(plans.map((p, i) => [NOWS[i].toISOString(), p] as const))("has realistic outcomes, and Yahoo bounces noticeably more (now = %s)", (_, { plan }) => {
    const f = historyFigures(plan);
    expect(rate(f.total.bounced, f.total.sent)).toBeGreaterThan(0.01);
    expect(rate(f.total.bounced, f.total.sent)).toBeLessThan(0.04);
    expect(rate(f.total.opened, f.total.delivered)).toBeGreaterThan(0.36);
    expect(rate(f.total.opened, f.total.delivered)).toBeLessThan(0.5);
    expect(rate(f.total.clicked, f.total.delivered)).toBeGreaterThan(0.06);
    expect(rate(f.total.clicked, f.total.delivered)).toBeLessThan(0.1);
    expect(f.total.complained).toBeGreaterThanOrEqual(1);
    expect(f.total.complained).toBeLessThanOrEqual(6);
    expect(f.deferred / f.total.sent).toBeGreaterThan(0.015);
    const yahoo = rate(f.byProvider.yahoo.bounced, f.byProvider.yahoo.sent);
    expect(yahoo).toBeGreaterThan(0.055);
    expect(yahoo).toBeLessThan(0.09);
    for (const key of ["gmail", "microsoft", "apple", "other"] as const) {
      const p = f.byProvider[key];
      expect(p.sent / f.total.sent, key).toBeGreaterThan(0.08);
      expect(rate(p.bounced, p.sent), key).toBeGreaterThan(0.005);
      expect(rate(p.bounced, p.sent), key).toBeLessThan(0.025);
      expect(yahoo / rate(p.bounced, p.sent), key).toBeGreaterThan(2.5);
    }
  });

  it("spreads recipients over the providers' domains and company domains, and the same people get several messages", () => {
    const { plan } = plans[0];
    const domains = new Set(plan.messages.filter((m) => m.direction === "outbound").map((m) => m.to[0].email.split("@")[1]));
    for (const d of ["gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "yahoo.com", "ymail.com", "icloud.com", "me.com", "mac.com"]) expect(domains).toContain(d);
    expect(COMPANY_DOMAINS.filter((d) => domains.has(d)).length).toBeGreaterThanOrEqual(8);
    const perRecipient = new Map<string, number>();
    for (const m of plan.messages) if (m.direction === "outbound") perRecipient.set(m.to[0].email, (perRecipient.get(m.to[0].email) ?? 0) + 1);
    expect([...perRecipient.values()].filter((n) => n >= 3).length).toBeGreaterThan(150);
    expect(Math.max(...perRecipient.values())).toBeGreaterThanOrEqual(10);
  });

  it("sends through the three templates with merge data, rendered, and plain sends, each with a category", () => {
    const { plan } = plans[0];
    const sent = plan.messages.filter((m) => m.direction === "outbound" && m.status !== "queued");
    for (const slug of ["receipt", "welcome", "password-reset"]) {
      const templated = sent.filter((m) => m.templateId === `tmpl_${slug}` && m.status === "delivered");
      expect(templated.length, slug).toBeGreaterThan(50);
      for (const m of templated) {
        expect(m.data).toBeTruthy();
        expect(`${m.subject}${m.html}${m.text}`).not.toContain("{{");
      }
    }
    expect(sent.find((m) => m.templateId === "tmpl_receipt" && m.status === "delivered")!.html).toMatch(/Thanks for your order, [A-Z]/);
    expect(sent.filter((m) => !m.templateId).length).toBeGreaterThan(400);
    for (const m of sent) expect(m.tags.find((t) => t.name === "category")?.value, m.id).toBeTruthy();
    // A deploy bug dropped `total` from receipts for a few minutes: they failed to render.
    const failed = plan.events.filter((e) => e.type === "rendering_failure");
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0].data).toMatchObject({ templateId: "tmpl_receipt", missing: ["total"] });
  });

  it("times every event after the one before, opens seconds to hours after delivery, nothing in the future", () => {
    const { now, plan } = plans[0];
    const delays: number[] = [];
    for (const [id, events] of eventsOf(plan)) {
      const m = plan.messages.find((x) => x.id === id)!;
      expect(events[0].createdAt.getTime()).toBe(m.createdAt.getTime());
      for (let i = 1; i < events.length; i++) expect(events[i].createdAt.getTime()).toBeGreaterThanOrEqual(events[i - 1].createdAt.getTime());
      for (const e of events) expect(e.createdAt.getTime()).toBeLessThanOrEqual(now.getTime());
      const delivered = events.find((e) => e.type === "delivery");
      const open = events.find((e) => e.type === "open");
      if (delivered && open) delays.push(open.createdAt.getTime() - delivered.createdAt.getTime());
    }
    expect(delays.filter((d) => d < 5 * 60_000).length).toBeGreaterThan(50);
    expect(delays.filter((d) => d > 3 * 3_600_000).length).toBeGreaterThan(50);
    const deferred = plan.events.filter((e) => e.type === "delivery_delayed");
    expect(deferred.length).toBeGreaterThan(20);
    for (const d of deferred) expect(eventsOf(plan).get(d.messageId)!.some((e) => e.type === "delivery" && e.createdAt > d.createdAt)).toBe(true);
  });

  it("records clicks with the link, several distinct links clicked often", () => {
    const { plan } = plans[0];
    const byId = new Map(plan.messages.map((m) => [m.id, m]));
    const clicks = plan.events.filter((e) => e.type === "click");
    // Mustache escapes "/" and "=" in html (`&#x2F;`, `&#x3D;`); a browser decodes it back to the link clicked.
    const decoded = (html: string | null) => (html ?? "").replace(/&#x2F;/g, "/").replace(/&#x3D;/g, "=").replace(/&amp;/g, "&");
    expect(clicks.length).toBeGreaterThan(100);
    for (const c of clicks) expect(decoded(byId.get(c.messageId)!.html)).toContain(`href="${String(c.data.link)}"`);
    const links = historyFigures(plan).links;
    expect(Math.max(...links.values())).toBeGreaterThanOrEqual(15);
    expect([...links.values()].filter((n) => n >= 3).length).toBeGreaterThanOrEqual(6);
  });

  it("suppresses as the service's rules do: hard bounces and complaints, and refuses later mail to them", () => {
    const { plan } = plans[0];
    const suppressed = new Map(plan.suppressions.map((s) => [s.email, s]));
    for (const e of plan.events.filter((x) => x.type === "bounce" || x.type === "complaint")) {
      const s = suppressed.get(String(e.data.recipient));
      if (e.type === "bounce" && e.data.bounceType !== "hard") continue;
      expect(s, `${e.type} of ${e.data.recipient}`).toBeTruthy();
      if (s!.messageId === e.messageId) expect(s!.reason).toBe(e.type === "bounce" ? "bounce" : "complaint");
    }
    expect(plan.suppressions.filter((s) => s.reason === "bounce").every((s) => s.messageId)).toBe(true);
    const policy = plan.events.filter((e) => e.type === "bounce" && e.data.bounceType === "undetermined");
    expect(policy.length).toBeGreaterThan(3);
    const rejected = plan.events.filter((e) => e.type === "rejected");
    expect(rejected.length).toBeGreaterThan(10);
    for (const r of rejected) {
      expect(r.data).toMatchObject({ reason: "suppressed" });
      expect(suppressed.get(String(r.data.email))!.createdAt.getTime()).toBeLessThanOrEqual(r.createdAt.getTime());
    }
  });

  it("has inbound mail and replies in threads", () => {
    const { plan } = plans[0];
    const f = historyFigures(plan);
    expect(f.inbound).toBeGreaterThanOrEqual(25);
    expect(f.threads).toBeGreaterThanOrEqual(20);
    const byRfc = new Map(plan.messages.map((m) => [m.rfcMessageId, m]));
    const answers = plan.messages.filter((m) => m.inReplyTo);
    expect(answers.some((m) => m.direction === "outbound")).toBe(true);
    for (const m of answers) {
      const parent = byRfc.get(m.inReplyTo!)!;
      expect(parent.threadId).toBe(m.threadId);
      expect(m.createdAt.getTime()).toBeGreaterThan(parent.createdAt.getTime());
      expect(m.subject).toMatch(/^Re: /);
    }
    for (const m of plan.messages.filter((x) => x.direction === "inbound")) expect(m.status).toBe("received");
  });

  it("schedules a few sends in the coming days, to undeliverable company addresses only", () => {
    for (const { now, plan } of plans) {
      const scheduled = plan.messages.filter((m) => m.scheduledAt);
      expect(scheduled.length).toBe(PROFILES.production.scheduled);
      expect(plan.scheduled.map((s) => s.messageId).sort()).toEqual(scheduled.map((m) => m.id).sort());
      for (const m of scheduled) {
        expect(m.status).toBe("queued");
        expect(m.scheduledAt!.getTime()).toBeGreaterThan(now.getTime());
        expect(m.scheduledAt!.getTime()).toBeLessThan(now.getTime() + 6 * DAY);
        expect(m.to[0].email).toMatch(/\.example$/);
        expect(eventsOf(plan).get(m.id)!.map((e) => [e.type, e.data.scheduledAt])).toEqual([["accepted", undefined], ["queued", m.scheduledAt!.toISOString()]]);
      }
    }
  });

  it("gives the staging project a smaller month of its own", () => {
    const staging = historyFigures(generate(NOWS[0], PROFILES.staging));
    expect(staging.messages).toBeGreaterThan(300);
    expect(staging.messages).toBeLessThan(700);
    expect(staging.inbound).toBeGreaterThan(2);
    expect(staging.scheduled).toBe(PROFILES.staging.scheduled);
  });
});
