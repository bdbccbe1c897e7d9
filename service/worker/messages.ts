import { and, eq, inArray } from "drizzle-orm";
import type { Deps } from "../context";
import { attachments, messages, suppressions, templates } from "../db/schema";
import { SEND_JOB } from "../lib/accept";
import { markUnsubscribed } from "../lib/contacts";
import { recordEvent, type MessageRow, type Tx } from "../lib/events";
import { STATUS_AFTER_EVENT } from "../../contract/message-status";
import { findMessage } from "../lib/messages";
import { renderTemplate } from "../lib/render";
import { sandboxPlan } from "../lib/sandbox";
import { relay } from "../lib/smtp-relay";
import { MAX_ATTEMPTS, enqueue, type JobHandlers } from "./queue";

export const RELAY_JOB = "message.relay";
export const SANDBOX_STEP_JOB = "message.step";
/** The relay records `failed` on the queue's last attempt. */
export const RELAY_MAX_ATTEMPTS = MAX_ATTEMPTS;

const recipientsOf = (m: MessageRow) => [...m.to, ...m.cc, ...m.bcc];

/**
 * PGlite answers without real I/O, so a worker round of awaited queries can run as one long
 * chain of microtasks and starve the HTTP server. Each job first lets pending I/O run.
 */
export const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Takes a message out of the queue (now, or at its `scheduledAt`): refuses suppressed
 * recipients, renders its template, then moves it to `sending` and hands it to the relay or
 * the sandbox. The move is conditional on `queued`, so a send job that runs twice (a lease
 * that ran out, a restart) sends once.
 */
async function send(deps: Deps, payload: Record<string, unknown>) {
  await yieldToIo();
  const message = await findMessage(deps.db, String(payload.messageId));
  if (!message || message.status !== "queued") return;

  const addresses = recipientsOf(message).map((r) => r.email.toLowerCase());
  const blocked = await deps.db.select().from(suppressions)
    .where(and(eq(suppressions.projectId, message.projectId), inArray(suppressions.email, addresses)));
  if (blocked.length) {
    await recordEvent(deps.db, message, "rejected", {
      reason: "suppressed",
      email: blocked[0].email,
      suppressionReason: blocked[0].reason,
      suppressed: blocked.map((s) => ({ email: s.email, reason: s.reason })),
    }, { expect: ["queued"] });
    return deps.kick();
  }

  const content = await renderContent(deps, message);
  if ("failure" in content) {
    await recordEvent(deps.db, message, "rendering_failure", content.failure, { expect: ["queued"] });
    return deps.kick();
  }

  const smtp = deps.config.SERVICE_SMTP_URL;
  const next = smtp
    ? { kind: RELAY_JOB, payload: { messageId: message.id }, runAt: new Date() }
    : { kind: SANDBOX_STEP_JOB, payload: { messageId: message.id, step: 0 }, runAt: new Date(Date.now() + deps.config.SERVICE_SANDBOX_STEP_MS) };
  // Webhooks of this event already carry the rendered subject.
  const current = content.rendered ? { ...message, ...content.rendered } : message;
  const sending = (tx: Tx) => recordEvent(tx, current, "sending", { mode: smtp ? "smtp" : "sandbox" }, { expect: ["queued"], next });
  if (content.rendered) {
    const rendered = content.rendered;
    await deps.db.transaction(async (tx) => {
      await tx.update(messages).set(rendered).where(and(eq(messages.id, message.id), eq(messages.status, "queued")));
      await sending(tx);
    });
  } else {
    await sending(deps.db);
  }
  deps.kick();
}

type Rendered = { subject: string | null; html: string | null; text: string | null };

/** A templated message is rendered now, at send time, with the data given on send. */
async function renderContent(deps: Deps, message: MessageRow): Promise<{ rendered: Rendered | null } | { failure: Record<string, unknown> }> {
  if (!message.templateId) return { rendered: null };
  const [template] = await deps.db.select().from(templates).where(eq(templates.id, message.templateId)).limit(1);
  if (!template) return { failure: { templateId: message.templateId, error: "The template no longer exists" } };
  // Parts given on send override the template's; all are rendered with the merge data.
  const parts = {
    subject: message.subject ?? template.subject,
    html: message.html ?? template.html,
    text: message.text ?? template.text,
  };
  try {
    const result = renderTemplate(parts, message.data ?? {});
    if (result.missing.length) {
      return { failure: { templateId: message.templateId, missing: result.missing, error: `Missing template variable(s): ${result.missing.join(", ")}` } };
    }
    return { rendered: { subject: result.subject, html: result.html, text: result.text } };
  } catch (error) {
    return { failure: { templateId: message.templateId, error: error instanceof Error ? error.message : String(error) } };
  }
}

/** One step of a sandbox delivery; the next one is queued `SERVICE_SANDBOX_STEP_MS` later. */
async function sandboxStep(deps: Deps, payload: Record<string, unknown>) {
  await yieldToIo();
  const message = await findMessage(deps.db, String(payload.messageId));
  const index = Number(payload.step);
  if (!message) return;
  const plan = sandboxPlan(recipientsOf(message), message);
  const step = plan[index];
  if (!step) return;
  // The status the previous step left: a step runs only from there, so it records once.
  let expected = "sending";
  for (const prior of plan.slice(0, index)) expected = STATUS_AFTER_EVENT[prior.type] ?? expected;

  const next = index + 1 < plan.length
    ? { kind: SANDBOX_STEP_JOB, payload: { messageId: message.id, step: index + 1 }, runAt: new Date(Date.now() + deps.config.SERVICE_SANDBOX_STEP_MS) }
    : undefined;
  const record = (tx: Tx) => recordEvent(tx, message, step.type, step.data, { expect: [expected], next });
  if (step.suppress) {
    const reason = step.suppress;
    await deps.db.transaction(async (tx) => {
      if (await record(tx)) await suppress(tx, message, [String(step.data.recipient)], reason);
    });
  } else {
    await record(deps.db);
  }
  deps.kick();
}

/**
 * A hard bounce or a complaint keeps the address from being mailed again by this project;
 * a complaint also unsubscribes the project's contact.
 */
async function suppress(tx: Tx, message: MessageRow, emails: string[], reason: "bounce" | "complaint") {
  const rows = emails.filter(Boolean).map((email) => ({ projectId: message.projectId, email: email.toLowerCase(), reason, messageId: message.id }));
  if (!rows.length) return;
  await tx.insert(suppressions).values(rows).onConflictDoNothing();
  if (reason === "complaint") for (const r of rows) await markUnsubscribed(tx, message.projectId, r.email);
}

/** Real delivery through `SERVICE_SMTP_URL`: the SMTP answer decides sent/delivered/bounced. */
async function relayMessage(deps: Deps, payload: Record<string, unknown>, attempt: number) {
  await yieldToIo();
  const message = await findMessage(deps.db, String(payload.messageId));
  if (!message || message.status !== "sending") return;
  const url = deps.config.SERVICE_SMTP_URL;
  if (!url) {
    // The service restarted without a relay: finish the message in the sandbox instead.
    await enqueue(deps.db, SANDBOX_STEP_JOB, { messageId: message.id, step: 0 });
    return deps.kick();
  }
  const files = await deps.db.select().from(attachments).where(eq(attachments.messageId, message.id)).orderBy(attachments.id);
  const result = await relay(url, message, files);

  if (result.kind === "transient") {
    // Thrown errors are retried by the queue with backoff; the last attempt records the failure.
    if (attempt < RELAY_MAX_ATTEMPTS) throw new Error(result.error);
    await recordEvent(deps.db, message, "failed", { error: result.error, attempts: attempt }, { expect: ["sending"] });
    return deps.kick();
  }

  await deps.db.transaction(async (tx) => {
    if (result.kind === "bounced") {
      const bounceType = result.recipientLevel ? "hard" : "undetermined";
      const updated = await recordEvent(tx, message, "bounce", {
        bounceType, diagnostic: result.diagnostic, recipient: result.bounced[0]?.recipient ?? null, recipients: result.bounced,
      }, { expect: ["sending"] });
      // Only a refusal of the recipient itself says the address is bad; a refused message does not.
      if (updated && result.recipientLevel) await suppress(tx, message, result.bounced.map((b) => b.recipient), "bounce");
      return;
    }
    let current = await recordEvent(tx, message, "sent", { mode: "smtp", response: result.response, accepted: result.accepted }, { expect: ["sending"] });
    if (!current) return;
    for (const b of result.bounced) {
      current = (await recordEvent(tx, current, "bounce", { bounceType: "hard", recipient: b.recipient, diagnostic: b.diagnostic, partial: true }))!;
    }
    await suppress(tx, message, result.bounced.map((b) => b.recipient), "bounce");
    await recordEvent(tx, current, "delivery", { recipients: result.accepted, response: result.response });
  });
  deps.kick();
}

export const messageJobHandlers: JobHandlers = {
  [SEND_JOB]: send,
  [SANDBOX_STEP_JOB]: sandboxStep,
  [RELAY_JOB]: relayMessage,
};
