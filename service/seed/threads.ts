import type { MessageRow } from "../lib/events";
import { COMPANY_DOMAINS } from "./providers";
import { CUSTOMER_REPLIES, NEW_QUESTIONS, SUPPORT_ANSWERS, type Composed, type Context } from "./content";
import type { HistoryInput, HistoryPlan } from "./history-types";
import { messageRow, seededId } from "./rows";
import type { PlannedEvent, SuppressionState } from "./lifecycle";
import type { Person } from "./people";
import type { Random } from "./random";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Send = (intent: { t: number; person: Person; composed: Composed }, extra?: Partial<MessageRow>) => { row: MessageRow; life: { status: string } };
type Record = (row: MessageRow, events: PlannedEvent[]) => void;

const re = (subject: string | null) => (subject && /^re:/i.test(subject) ? subject : `Re: ${subject ?? ""}`.trim());

/** The Message-ID a provider's mail client would give a message. */
function clientMessageId(random: Random, person: Person): string {
  const domain = person.email.split("@")[1];
  if (person.provider === "gmail") return `<CA+${random.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 36)}@mail.gmail.com>`;
  return `<${random.chars("0123456789abcdef", 32)}@${domain}>`;
}

/**
 * Inbound mail and threads: customers answering a receipt, shipping note or invoice, a few new
 * questions to support; support answers most of them, and some customers write back once more.
 */
export function addThreads(random: Random, opts: { input: HistoryInput; plan: HistoryPlan; people: Person[]; suppressions: SuppressionState; now: number; end: number; send: Send; record: Record }) {
  const { input, plan, end } = opts;
  const support = { email: `support@${input.domain}`, name: `${input.fromName} Support` };
  const deliveredAt = new Map<string, number>();
  for (const e of plan.events) if (e.type === "delivery") deliveredAt.set(e.messageId, e.createdAt.getTime());
  const answerable = plan.messages.filter((m) => m.status === "delivered" && m.tags.some((t) => ["receipt", "shipping", "billing"].includes(t.value))
    && (deliveredAt.get(m.id) ?? Infinity) < end - 6 * HOUR);
  const byEmail = new Map(opts.people.map((p) => [p.email, p]));

  const inbound = (person: Person, to: string, t: number, subject: string, text: string, parent: MessageRow | null): MessageRow => {
    const id = seededId("msg", t, random);
    const rfc = clientMessageId(random, person);
    const row: MessageRow = {
      id, projectId: input.projectId, direction: "inbound", status: "received",
      from: person.email, fromName: person.name, to: [{ email: to }], cc: [], bcc: [], replyTo: [],
      subject, html: null, text, headers: {}, tags: [], templateId: null, data: null, scheduledAt: null,
      rfcMessageId: rfc, inReplyTo: parent?.rfcMessageId ?? null,
      references: parent ? [...parent.references, parent.rfcMessageId] : [], threadId: parent?.threadId ?? id,
      createdAt: new Date(t), updatedAt: new Date(t),
    };
    opts.record(row, [{ type: "inbound_received", at: t, data: { source: "smtp", recipients: [to], attachments: 0 } }]);
    return row;
  };
  const answer = (question: MessageRow, person: Person) => {
    const t = question.createdAt.getTime() + Math.max(10 * MINUTE, random.logNormal(2 * HOUR, 0.8));
    if (t > end) return null;
    const text = `Hi ${person.firstName},\n\n${random.pick(SUPPORT_ANSWERS)}\n\nBest,\nSam from ${input.fromName} Support`;
    return opts.send({ t, person, composed: { kind: "reply", from: support, subject: re(question.subject), text, tags: [{ name: "category", value: "support" }], headers: {}, links: [] } }, {
      subject: re(question.subject), text, inReplyTo: question.rfcMessageId, references: [...question.references, question.rfcMessageId], threadId: question.threadId,
    }).row;
  };
  const converse = (question: MessageRow, person: Person) => {
    if (!random.chance(0.7)) return;
    const reply = answer(question, person);
    if (!reply || reply.status !== "delivered" || !random.chance(0.3)) return;
    const t = reply.createdAt.getTime() + Math.max(15 * MINUTE, random.logNormal(3 * HOUR, 0.8));
    if (t < end) inbound(person, support.email, t, re(reply.subject), "Thank you, that solves it!", reply);
  };

  for (let i = 0; i < opts.input.profile.replies && answerable.length; i++) {
    const original = answerable.splice(random.int(0, answerable.length - 1), 1)[0];
    const person = byEmail.get(original.to[0].email);
    if (!person) continue;
    const t = deliveredAt.get(original.id)! + Math.max(5 * MINUTE, random.logNormal(4 * HOUR, 1));
    if (t > end) continue;
    const quoted = (original.text ?? "").split("\n").slice(0, 3).map((l) => `> ${l}`).join("\n");
    converse(inbound(person, original.from, t, re(original.subject), `${random.pick(CUSTOMER_REPLIES)}\n\n${person.firstName}\n\n${quoted}`, original), person);
  }
  const eligible = opts.people.filter((p) => !opts.suppressions.has(p.email));
  for (let i = 0; i < opts.input.profile.questions; i++) {
    const person = random.pick(eligible);
    const [subject, text] = random.pick(NEW_QUESTIONS);
    const t = Math.max(person.signedUpAt, end - random.between(0.5, 28) * DAY);
    if (t < end) converse(inbound(person, support.email, Math.floor(t), subject, `${text}\n\n${person.name}`, null), person);
  }
}

/**
 * Sends the app scheduled for the coming days. Only to the fictional company domains (`.example`
 * cannot be delivered): with an SMTP relay configured later, they must reach no one real.
 */
export function addScheduled(random: Random, opts: { input: HistoryInput; plan: HistoryPlan; people: Person[]; suppressions: SuppressionState; now: number; ctx: Context }) {
  const { input, plan, now } = opts;
  const audience = opts.people.filter((p) => (COMPANY_DOMAINS as readonly string[]).includes(p.email.split("@")[1]) && !opts.suppressions.has(p.email));
  for (let i = 0; i < input.profile.scheduled && audience.length; i++) {
    const person = audience.splice(random.int(0, audience.length - 1), 1)[0];
    const dayStart = Math.floor(now / DAY) * DAY;
    const scheduledAt = dayStart + random.int(1, 5) * DAY + 9 * HOUR + random.int(0, 8) * 15 * MINUTE;
    const t = Math.floor(now - random.between(0.1, 3) * DAY);
    const link = `https://${input.domain}/billing/upgrade`;
    const subject = "Your trial ends tomorrow";
    const text = `Hi ${person.firstName},\n\nyour trial ends tomorrow. Choose a plan to keep your workspace: ${link}\n`;
    const id = seededId("msg", t, random);
    const row = messageRow(input, id, { t, person, composed: { kind: "trial-ending", from: { email: `hello@${input.domain}`, name: input.fromName }, tags: [{ name: "category", value: "lifecycle" }], headers: {}, links: [link] } }, {
      subject, text, scheduledAt: new Date(scheduledAt),
    });
    plan.messages.push(row);
    plan.events.push(
      { messageId: id, type: "accepted", data: {}, createdAt: new Date(t) },
      { messageId: id, type: "queued", data: { scheduledAt: new Date(scheduledAt).toISOString() }, createdAt: new Date(t + 1) },
    );
    plan.scheduled.push({ messageId: id, runAt: new Date(scheduledAt) });
    plan.recipients.set(person.email, person);
  }
}
