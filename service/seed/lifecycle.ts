import type { EventType } from "../../contract/wire";
import { REACTIONS, type Composed } from "./content";
import type { Person } from "./people";
import { PROVIDERS, type Provider } from "./providers";
import { createQuota, type Quota, type Random } from "./random";

export type PlannedEvent = { type: EventType; data: Record<string, unknown>; at: number };
export type Suppression = { email: string; reason: "bounce" | "complaint" | "unsubscribe"; at: number; viaMessage: boolean };
export type Lifecycle = { status: string; events: PlannedEvent[]; suppression?: Suppression };

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const providers = new Map(PROVIDERS.map((p) => [p.key, p]));
export const providerFor = (person: Person): Provider => providers.get(person.provider)!;

const SMTP_OK: Record<string, (id: string) => string> = {
  gmail: (id) => `250 2.0.0 OK  ${id.slice(-10)} - gsmtp`,
  microsoft: () => "250 2.6.0 Queued mail for delivery",
  yahoo: () => "250 ok dirdel",
  apple: () => "250 2.0.0 Ok: queued",
  other: () => "250 2.0.0 Ok: queued",
};

/** Past suppressions of the project as they stand at each moment of the replayed month. */
export type SuppressionState = Map<string, Suppression>;

/**
 * Steady draws of the rare outcomes: bounces per provider, so each provider shows its own
 * rate; complaints across the project (a handful in all, likelier where the rate is higher).
 */
export type Draws = { byProvider: Map<Provider["key"], { unknownUser: Quota; policy: Quota }>; complaint: Quota };
export function createDraws(random: Random): Draws {
  return {
    byProvider: new Map(PROVIDERS.map((p) => [p.key, { unknownUser: createQuota(random), policy: createQuota(random) }])),
    complaint: createQuota(random),
  };
}

/**
 * One outbound message's life, as the service's pipeline would have recorded it: accepted and
 * queued at `t`; refused when the recipient is suppressed; otherwise sending, sent, then a
 * bounce (an unknown mailbox suppresses the address; a policy block does not), or delivery (some
 * deferred first), then opens, clicks and the odd complaint. Nothing is recorded after `now`.
 */
export function lifecycle(random: Random, input: { id: string; t: number; now: number; person: Person; composed: Composed; suppressions: SuppressionState; draws: Draws; renderingFailure?: { templateId: string; missing: string[] } }): Lifecycle {
  const { t, now, person, composed } = input;
  const recipient = person.email;
  const provider = providerFor(person);
  const draws = input.draws.byProvider.get(provider.key)!;
  const events: PlannedEvent[] = [
    { type: "accepted", data: {}, at: t },
    { type: "queued", data: {}, at: t + 1 },
  ];
  let at = t + random.int(40, 600);
  const blocked = input.suppressions.get(recipient);
  if (blocked && blocked.at <= t) {
    events.push({ type: "rejected", at, data: { reason: "suppressed", email: recipient, suppressionReason: blocked.reason, suppressed: [{ email: recipient, reason: blocked.reason }] } });
    return { status: "rejected", events };
  }
  if (input.renderingFailure) {
    const { templateId, missing } = input.renderingFailure;
    events.push({ type: "rendering_failure", at, data: { templateId, missing, error: `Missing template variable(s): ${missing.join(", ")}` } });
    return { status: "failed", events };
  }
  events.push({ type: "sending", data: { mode: "smtp" }, at });
  at += random.int(150, 1800);
  events.push({ type: "sent", data: { mode: "smtp", response: "250 2.0.0 Message accepted for delivery", accepted: [recipient] }, at });

  if (draws.unknownUser(provider.unknownUserRate)) {
    at += random.int(400, 9000);
    events.push({ type: "bounce", at, data: { recipient, bounceType: "hard", diagnostic: provider.unknownUser(recipient) } });
    const suppression: Suppression = { email: recipient, reason: "bounce", at, viaMessage: true };
    return { status: "bounced", events, suppression: remember(input.suppressions, suppression) };
  }
  if (draws.policy(provider.policyBlock)) {
    at += random.int(400, 5000);
    events.push({ type: "bounce", at, data: { recipient, bounceType: "undetermined", diagnostic: provider.policy } });
    return { status: "bounced", events };
  }
  if (random.chance(provider.deferral)) {
    at += random.int(1000, 8000);
    events.push({ type: "delivery_delayed", at, data: { recipient, cause: provider.deferred.cause, diagnostic: provider.deferred.diagnostic } });
    at += Math.min(6 * HOUR, Math.max(2 * MINUTE, random.logNormal(20 * MINUTE, 1)));
  } else {
    at += random.int(300, 4000);
  }
  if (at > now) at = now - random.int(1, 30) * SECOND;
  events.push({ type: "delivery", at, data: { recipient, diagnostic: SMTP_OK[provider.key](input.id) } });
  const delivered = at;

  const reactions = REACTIONS[composed.kind];
  const late = (x: number) => x > now - MINUTE;
  const opened: number[] = [];
  if (random.chance(Math.min(0.97, person.opens * reactions.open))) {
    // Apple's privacy proxy fetches the pixel within seconds of delivery; people take longer.
    const first = delivered + (provider.key === "apple" && random.chance(0.7) ? random.int(2, 40) * SECOND : Math.max(5 * SECOND, random.logNormal(50 * MINUTE, 1.5)));
    if (!late(first)) opened.push(first);
    if (opened.length && random.chance(0.22)) {
      const again = first + Math.max(MINUTE, random.logNormal(6 * HOUR, 1.2));
      if (!late(again)) opened.push(again);
    }
  }
  let clickedUnsubscribe: number | null = null;
  const clicks: PlannedEvent[] = [];
  if (opened.length && composed.links.length && random.chance(reactions.click)) {
    const link = pickLink(random, composed.links);
    const clickAt = opened[0] + Math.max(3 * SECOND, random.logNormal(45 * SECOND, 1.2));
    if (!late(clickAt)) {
      clicks.push({ type: "click", at: clickAt, data: { recipient, link, userAgent: provider.userAgent } });
      if (link.endsWith("/unsubscribe")) clickedUnsubscribe = clickAt;
      else if (composed.links.length > 1 && random.chance(0.2)) {
        const other = composed.links.find((l) => l !== link && !l.endsWith("/unsubscribe"));
        const otherAt = clickAt + Math.max(5 * SECOND, random.logNormal(2 * MINUTE, 1));
        if (other && !late(otherAt)) clicks.push({ type: "click", at: otherAt, data: { recipient, link: other, userAgent: provider.userAgent } });
      }
    }
  }
  events.push(...opened.map((o) => ({ type: "open" as const, at: o, data: { recipient, userAgent: provider.userAgent } })), ...clicks);

  let status = "delivered";
  let suppression: Suppression | undefined;
  if (input.draws.complaint(provider.complaint * reactions.complaint)) {
    const complainedAt = delivered + Math.max(10 * MINUTE, random.logNormal(3 * HOUR, 1.2));
    if (!late(complainedAt)) {
      events.push({ type: "complaint", at: complainedAt, data: { recipient, feedbackType: "abuse" } });
      status = "complained";
      suppression = { email: recipient, reason: "complaint", at: complainedAt, viaMessage: true };
    }
  }
  if (!suppression && clickedUnsubscribe !== null) suppression = { email: recipient, reason: "unsubscribe", at: clickedUnsubscribe, viaMessage: false };
  events.sort((a, b) => a.at - b.at);
  return { status, events, suppression: suppression && remember(input.suppressions, suppression) };
}

/** The first suppression of an address stands (the service keeps the first, too). */
function remember(state: SuppressionState, suppression: Suppression): Suppression | undefined {
  if (state.has(suppression.email)) return undefined;
  state.set(suppression.email, suppression);
  return suppression;
}

/** The first link most of the time (the call to action), the others now and then. */
function pickLink(random: Random, links: string[]): string {
  return random.weighted(links.map((l, i) => [l, l.endsWith("/unsubscribe") ? 0.2 : i === 0 ? 1 : 0.35] as const));
}
