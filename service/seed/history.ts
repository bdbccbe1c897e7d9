import type { MessageRow } from "../lib/events";
import { renderTemplate } from "../lib/render";
import { compose, type Composed, type Context } from "./content";
import { createDraws, lifecycle, type PlannedEvent, type SuppressionState } from "./lifecycle";
import { createPeople, type Person } from "./people";
import { createRandom, type Random } from "./random";
import { messageRow, seededId } from "./rows";
import { addScheduled, addThreads } from "./threads";
import type { HistoryInput, HistoryPlan, HistoryProfile } from "./history-types";

export type { HistoryEvent, HistoryInput, HistoryPlan, HistoryProfile, TemplateSlug } from "./history-types";

/**
 * The demo's past: a month of one project's mail, generated from a seed so the same seed and
 * start time give the same history. Pure: it returns rows; `write.ts` stores them.
 */
export const PROFILES = {
  production: {
    people: 900, newShare: 0.2, companyBias: 1, perDay: 54, digest: true, digestShare: 0.15, replies: 30, questions: 8, scheduled: 9, renderingIncident: true,
    kinds: [["receipt", 40], ["password-reset", 14], ["shipping", 22], ["invoice", 9], ["trial-ending", 6]],
  },
  staging: {
    people: 140, newShare: 0.15, companyBias: 3, perDay: 15, digest: false, digestShare: 0, replies: 4, questions: 2, scheduled: 3, renderingIncident: false,
    kinds: [["receipt", 35], ["password-reset", 15], ["shipping", 20], ["invoice", 15], ["trial-ending", 15]],
  },
} as const satisfies Record<string, HistoryProfile>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Europe and the Americas awake: quiet nights, a morning and an afternoon peak (UTC). */
const HOURLY = [0.35, 0.3, 0.25, 0.22, 0.25, 0.35, 0.6, 0.9, 1.2, 1.4, 1.45, 1.4, 1.35, 1.45, 1.6, 1.65, 1.55, 1.4, 1.2, 1.05, 0.9, 0.75, 0.6, 0.45];
const HOURLY_MEAN = HOURLY.reduce((a, b) => a + b, 0) / 24;
/** Sunday first, as `getUTCDay` counts. */
const WEEKDAY = [0.55, 1.05, 1.1, 1.05, 1.0, 0.95, 0.6];

function poisson(random: Random, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  for (let p = random.next(); p > limit; p *= random.next()) k++;
  return k;
}

export function generateHistory(input: HistoryInput): HistoryPlan {
  const random = createRandom(input.seed);
  const { profile } = input;
  const now = input.now.getTime();
  // Ends a few minutes ago and starts just inside the 30-day window, so every day of a chart has mail.
  const end = now - 3 * 60_000;
  const start = now - input.days * DAY + 10 * 60_000;
  const people = createPeople(random, profile.people, { start, end }, { newShare: profile.newShare, companyBias: profile.companyBias, digestShare: profile.digestShare });
  const byActivity = cumulative(people);
  let order = 4000 + random.int(0, 999);
  const ctx: Context = { domain: input.domain, fromName: input.fromName, orderSeq: () => (order += random.int(1, 4)), digestWeek: 0 };

  type Intent = { t: number; person: Person; composed: Composed };
  const intents: Intent[] = [];
  const dayNoise = Array.from({ length: input.days + 2 }, () => 1 + 0.1 * random.normal());
  for (let hour = Math.floor(start / HOUR) * HOUR; hour < end; hour += HOUR) {
    const date = new Date(hour);
    const day = Math.floor((hour - start) / DAY) + 1;
    const growth = 0.85 + 0.25 * ((hour - start) / (end - start));
    const mean = (profile.perDay / 24) * (HOURLY[date.getUTCHours()] / HOURLY_MEAN) * WEEKDAY[date.getUTCDay()] * growth * Math.max(0.5, dayNoise[day] ?? 1);
    for (let n = poisson(random, mean); n > 0; n--) {
      const t = Math.floor(hour + random.next() * HOUR);
      if (t < start || t > end) continue;
      const person = pickActive(random, people, byActivity, t);
      intents.push({ t, person, composed: compose(random, random.weighted(profile.kinds), person, ctx) });
    }
  }
  for (const person of people) {
    if (person.signedUpAt >= start && person.signedUpAt <= end) intents.push({ t: Math.floor(person.signedUpAt), person, composed: compose(random, "welcome", person, ctx) });
  }
  intents.sort((a, b) => a.t - b.t);

  const plan: HistoryPlan = { messages: [], events: [], suppressions: [], scheduled: [], recipients: new Map() };
  const suppressions: SuppressionState = new Map();
  const draws = createDraws(random);
  const incident = profile.renderingIncident ? incidentWindow(random, start, end) : null;
  const record = (row: MessageRow, events: PlannedEvent[]) => {
    plan.messages.push({ ...row, updatedAt: new Date(events[events.length - 1].at) });
    for (const e of events) plan.events.push({ messageId: row.id, type: e.type, data: e.data, createdAt: new Date(e.at) });
  };
  const send = (intent: Intent, extra: Partial<MessageRow> = {}) => {
    const id = seededId("msg", intent.t, random);
    const failing = incident && intent.composed.kind === "receipt" && intent.t >= incident[0] && intent.t <= incident[1];
    const templateId = intent.composed.template ? input.templates[intent.composed.template].id : null;
    const data = failing ? withoutTotal(intent.composed.data) : intent.composed.data;
    const life = lifecycle(random, {
      id, t: intent.t, now, person: intent.person, composed: intent.composed, suppressions, draws,
      renderingFailure: failing ? { templateId: templateId!, missing: ["total"] } : undefined,
    });
    // Templated mail is stored rendered once it has left the queue, as the service's worker does.
    const rendered = intent.composed.template && ["sending", "sent"].some((s) => life.events.some((e) => e.type === s))
      ? renderTemplate(input.templates[intent.composed.template], data ?? {})
      : null;
    const row = messageRow(input, id, intent, {
      status: life.status, templateId, data: data ?? null,
      subject: rendered?.subject ?? intent.composed.subject ?? null,
      html: rendered?.html ?? intent.composed.html ?? null,
      text: rendered?.text ?? intent.composed.text ?? null,
      ...extra,
    });
    record(row, life.events);
    plan.recipients.set(intent.person.email, intent.person);
    if (life.suppression) {
      const s = life.suppression;
      plan.suppressions.push({ email: s.email, reason: s.reason, messageId: s.viaMessage ? id : null, createdAt: new Date(s.at) });
    }
    return { row, life };
  };

  const digests = profile.digest ? digestTimes(start, end - 2 * HOUR) : [];
  let next = 0;
  const flushDigestsUntil = (t: number) => {
    while (next < digests.length && digests[next] <= t) {
      ctx.digestWeek = next + 1;
      const at = digests[next++];
      const audience = people.filter((p) => p.digest && p.signedUpAt <= at && (suppressions.get(p.email)?.at ?? Infinity) > at);
      audience.forEach((person, i) => send({ t: at + Math.floor((i / audience.length) * 20 * 60_000), person, composed: compose(random, "digest", person, ctx) }));
    }
  };
  for (const intent of intents) {
    flushDigestsUntil(intent.t);
    send(intent);
  }
  flushDigestsUntil(end);

  addThreads(random, { input, plan, people, suppressions, now, end, send: (intent, extra) => send(intent, extra), record });
  addScheduled(random, { input, plan, people, suppressions, now, ctx });
  return plan;
}

function cumulative(people: Person[]): number[] {
  let sum = 0;
  return people.map((p) => (sum += p.activity));
}

/** Someone who had an account at `t`, likelier the more active they are. */
function pickActive(random: Random, people: Person[], sums: number[], t: number): Person {
  for (let attempt = 0; attempt < 50; attempt++) {
    const r = random.next() * sums[sums.length - 1];
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    if (people[lo].signedUpAt <= t) return people[lo];
  }
  return people.find((p) => p.signedUpAt <= t) ?? people[0];
}

function digestTimes(start: number, end: number): number[] {
  const times: number[] = [];
  for (let day = Math.floor(start / DAY) * DAY; day < end; day += DAY) {
    const at = day + 14 * HOUR;
    if (new Date(day).getUTCDay() === 2 && at >= start && at <= end) times.push(at);
  }
  return times;
}

/** 25 minutes on a weekday morning about twelve days back. */
function incidentWindow(random: Random, start: number, end: number): [number, number] {
  let day = Math.floor((end - 12 * DAY) / DAY) * DAY;
  while ([0, 6].includes(new Date(day).getUTCDay())) day -= DAY;
  const from = Math.max(start, day + 10 * HOUR + random.int(0, 30) * 60_000);
  return [from, from + 25 * 60_000];
}

function withoutTotal(data: Record<string, unknown> | undefined) {
  if (!data) return data;
  const { total: _total, ...rest } = data;
  return rest;
}
