import type { Context } from "hono";
import {
  batchRequest, batchResponse, idParam, message as messageShape, replyRequest, sendEmailRequest, sendEmailResponse,
  type SendEmail,
} from "../../contract/wire";
import type { App, AppEnv } from "../context";
import { acceptPrepared, createSendChecks, prepareSend, type Prepared } from "../lib/accept";
import { assertResourceProject, requireProject, requireResource, requireScope } from "../lib/auth";
import { ServiceError, fromZodError, notFound } from "../lib/errors";
import { idempotent, type Outcome } from "../lib/idempotency";
import { findMessage, loadMessage } from "../lib/messages";
import { registerAttachments } from "./email-attachments";
import { errorResponse, errorResponses, idempotencyHeaders, jsonAnswer, jsonBody, projectHeaders, routesTagged } from "./shared";

const errors = { ...errorResponses, 403: errorResponse("The key may not do this, or the sender's domain is not verified") };
const idempotencyErrors = {
  409: errorResponse("Idempotency-Key reused with another body (`idempotency_conflict`) or still in flight (`idempotency_in_flight`)"),
};
const sendHeaders = projectHeaders.extend(idempotencyHeaders.shape);

const route = routesTagged("Emails");

const send = route({
  method: "post", path: "/v1/emails",
  request: { headers: sendHeaders, body: jsonBody(sendEmailRequest) },
  responses: { 202: jsonAnswer("Accepted and queued", sendEmailResponse), ...errors, ...idempotencyErrors },
});

const batch = route({
  method: "post", path: "/v1/emails/batch",
  request: { headers: sendHeaders, body: jsonBody(batchRequest) },
  responses: {
    207: jsonAnswer("One entry per email, in order: `{id, status}` when queued, `{error}` (param names the item's field) when not", batchResponse),
    ...errors, ...idempotencyErrors,
    503: errorResponse("Injected fault (SERVICE_FAULT_BATCH_EVERY), nothing was done; retry"),
  },
});

const get = route({
  method: "get", path: "/v1/emails/{id}",
  request: { params: idParam },
  responses: { 200: jsonAnswer("The message with its lifecycle events", messageShape), ...errors, 404: errorResponse("No such message") },
});

const reply = route({
  method: "post", path: "/v1/emails/{id}/reply",
  request: { params: idParam, headers: idempotencyHeaders, body: jsonBody(replyRequest) },
  responses: {
    202: jsonAnswer("The reply, accepted and queued in the same thread", sendEmailResponse),
    ...errors, ...idempotencyErrors,
    404: errorResponse("No such message"),
  },
});

const queuedBody = (p: Prepared) => ({ id: p.message.id, status: "queued" });
const acceptedOne = (p: Prepared): Accepted => ({ accepted: [p], outcome: { status: 202, body: queuedBody(p) } });

type Accepted = { accepted: Prepared[]; outcome: Outcome };

/**
 * Runs an accepting POST at most once per Idempotency-Key: `prepare` checks the input and
 * builds the messages and the answer; the messages are accepted in one transaction with the
 * stored answer (a few multi-row inserts however many). A replayed answer says so in a header.
 */
async function acceptOnce(c: Context<AppEnv>, scope: { projectId: string; key?: string; body: unknown }, prepare: () => Promise<Accepted>) {
  const deps = c.get("deps");
  const out = await idempotent(deps.db, { ...scope, method: "POST", path: c.req.path }, async (save) => {
    const { accepted, outcome } = await prepare();
    await deps.db.transaction(async (tx) => {
      await acceptPrepared(tx, accepted);
      await save(tx, outcome);
    });
    if (accepted.length) deps.kick();
    return outcome;
  });
  if (out.replayed) c.header("Idempotent-Replayed", "true");
  return out;
}

export function register(app: App) {
  let batchRequests = 0;

  app.openapi(send, async (c) => {
    const project = await requireProject(c, "emails:send");
    const body = c.req.valid("json");
    const deps = c.get("deps");
    const out = await acceptOnce(c, { projectId: project.id, key: c.req.valid("header")["idempotency-key"], body }, async () =>
      acceptedOne(await prepareSend(createSendChecks(deps.db, project.id), project.id, body)));
    return c.json(out.body as never, out.status as 202);
  });

  app.openapi(batch, async (c) => {
    const deps = c.get("deps");
    // A test aid for the batch benchmark and clients' retry logic: every Nth batch fails before doing anything.
    const every = deps.config.SERVICE_FAULT_BATCH_EVERY;
    if (every > 0 && ++batchRequests % every === 0) {
      throw new ServiceError(503, "fault_injected", `Injected fault: every ${every}th batch request fails (SERVICE_FAULT_BATCH_EVERY); retry`, null, { "Retry-After": "1" });
    }
    const project = await requireProject(c, "emails:send");
    const body = c.req.valid("json");
    const out = await acceptOnce(c, { projectId: project.id, key: c.req.valid("header")["idempotency-key"], body }, async () => {
      const checks = createSendChecks(deps.db, project.id);
      const items = await Promise.all(body.emails.map(async (item, i) => {
        const parsed = sendEmailRequest.safeParse(item);
        if (!parsed.success) return { error: fromZodError(parsed.error, ["emails", String(i)]) };
        try {
          return { prepared: await prepareSend(checks, project.id, parsed.data, `emails.${i}.`) };
        } catch (error) {
          if (error instanceof ServiceError) return { error };
          throw error;
        }
      }));
      const accepted = items.flatMap((r) => (r.prepared ? [r.prepared] : []));
      const answer = { data: items.map((r) => (r.prepared ? queuedBody(r.prepared) : { error: r.error!.toBody().error })) };
      return { accepted, outcome: { status: 207, body: answer } };
    });
    return c.json(out.body as never, out.status as 207);
  });

  app.openapi(get, async (c) => {
    requireScope(c.get("auth"), "emails:read");
    const { id } = c.req.valid("param");
    const db = c.get("deps").db;
    const found = await requireResource(c, await loadMessage(db, id), "Message");
    return c.json(found.message, 200);
  });

  app.openapi(reply, async (c) => {
    requireScope(c.get("auth"), "emails:send");
    const { id } = c.req.valid("param");
    const deps = c.get("deps");
    const original = await findMessage(deps.db, id);
    if (!original) throw notFound("Message");
    const project = await assertResourceProject(c, original.projectId, "Message");
    const body = c.req.valid("json");
    const out = await acceptOnce(c, { projectId: project.id, key: c.req.valid("header")["idempotency-key"], body }, async () => {
      const checks = createSendChecks(deps.db, project.id);
      const inbound = original.direction === "inbound";
      const input: SendEmail = {
        from: body.from ?? (inbound ? await ownAddress(checks, original.to) : { email: original.from, name: original.fromName ?? undefined }),
        // Inbound: back to the sender (its Reply-To when it gave one). Outbound: a follow-up to the same recipients.
        to: inbound ? (original.replyTo.length ? original.replyTo : [{ email: original.from, name: original.fromName ?? undefined }]) : original.to,
        subject: body.subject ?? replySubject(original.subject),
        html: body.html,
        text: body.text,
      };
      const prepared = await prepareSend(checks, project.id, input, "", {
        threadId: original.threadId,
        inReplyTo: original.rfcMessageId,
        references: [...original.references, original.rfcMessageId],
      });
      return acceptedOne(prepared);
    });
    return c.json(out.body as never, out.status as 202);
  });

  registerAttachments(app);
}

/** `Re: <subject>`, without stacking prefixes on a reply to a reply. */
export function replySubject(subject: string | null): string {
  const s = (subject ?? "").trim();
  return /^re:/i.test(s) ? s : `Re: ${s}`.trimEnd();
}

/** Of the addresses an inbound message was sent to, the first one the project may send from. */
async function ownAddress(checks: ReturnType<typeof createSendChecks>, to: { email: string; name?: string }[]) {
  for (const address of to) {
    try {
      await checks.assertFrom(address.email, "from");
      return address;
    } catch {
      // not ours to send from; try the next recipient
    }
  }
  return to[0];
}
