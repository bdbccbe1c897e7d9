import "server-only";
import { createHash } from "node:crypto";
import { isAppError } from "@/lib/errors";
import { declaredLength } from "@/contract/http/read-body";
import { clientAddress } from "@/lib/server/http/client-address";
import { requestContext } from "@/lib/server/http/request-context";
import { series } from "@/lib/server/metrics/registry";
import { env } from "@/lib/server/env";
import { invalidateMessage } from "@/lib/server/message-index/read";
import { nudgeRereads } from "@/lib/server/message-index/reread-worker";
import { bytesBody, readDeliveryBody, type BodySource } from "./delivery-body";
import { countDelivery } from "./health";
import { noteDelivery } from "./delivery-log";
import { noteUnreadRefusal } from "./delivery-log-refusals";
import { holdBody, MIN_HOLD_BYTES } from "@/lib/server/http/inflight-budget";
import { networkOf } from "@/lib/net/ip-ranges";
import { deliveryTooLarge, ingestBusy, ingestLimits, MAX_DELIVERY_EVENTS } from "./ingest-limits";
import { cleanJson, readEvent } from "@/lib/server/message-index/payload";
import { recordDelivery } from "./group-commit";
import { refreshedStreamKeys, seenStream, streamKeys } from "./stream-cache";
import { readSignatureClaim, signatureHeaders, SignatureCheck, timestampProblem, verdict, verifyDelivery, type VerifyResult } from "./verify";

export type IngestResult = { status: number; body?: Record<string, unknown> };

const fail = (status: number, code: string, message: string): IngestResult => ({ status, body: { error: { message, code } } });

/**
 * One signed delivery from the service. The stream is a notification: the message read back
 * from the service is the truth (lib/server/message-index/reread-worker.ts). Anyone can reach the route, so the
 * work a request gets is bounded before it is done (./ingest-limits.ts):
 *
 * - before a byte of the body is read: a declared length over INGEST_MAX_BYTES is a 413; an
 *   unknown project or missing signature headers a 401, and so is a timestamp outside the
 *   tolerance on a body declared over MIN_HOLD_BYTES (chunked, it is read that far) — it cannot
 *   verify, and anybody can write it; a delivery that does not fit MIN_HOLD_BYTES into the
 *   in-flight budget (INGEST_INFLIGHT_BYTES, the part of it its declared size may use, and the
 *   client address's share) a 429 with
 *   Retry-After. Refused unread, the rest is dropped after the answer, then the connection
 *   closed (lib/server/http/node-answer.ts);
 * - the body is then read under the size limit, the budget (held as it arrives, not as
 *   declared), an arrival rate and a deadline, its HMAC computed chunk by chunk
 *   (./delivery-body.ts, ./verify.ts): a delivery that does not verify is a 401. It is counted
 *   as refused on the webhooks screen, but only one made with the project's key (a late
 *   timestamp, on a body small enough to have been read) can move the project to polling — a
 *   stranger's post never does (./health.ts);
 * - a delivery that verifies is never refused for its shape, and never answered 5xx for its
 *   content: text the database cannot store (NUL, lone surrogates) is replaced, nesting cut
 *   (lib/server/message-index/payload.ts). The message id is looked for in the documented places; the event is
 *   recorded once per `webhook-id`, the index updated provisionally, and a re-read of the
 *   message queued — together with the other deliveries arriving meanwhile, in one transaction
 *   (./group-commit.ts). Answer: 204, once that transaction has committed;
 * - a verified delivery the dashboard cannot use (not JSON, no message id, a list of more than
 *   MAX_DELIVERY_EVENTS events) is counted with its reason on the webhooks screen and
 *   acknowledged with 202, so the service stops retrying it; nothing of it is recorded.
 *
 * `body` is opened only once the checks before it have passed. A 413, 408 or 429, and a body
 * cut off, are thrown as AppErrors for the caller's answer (./ingest-response.ts). Nothing
 * here calls the service, and no counter row is written per delivery (./health.ts). Those
 * refusals are noted for the delivery log too, coalesced (./delivery-log-refusals.ts).
 */
export async function ingestStream(projectExternalId: string, headers: Headers, body: () => BodySource): Promise<IngestResult> {
  try {
    return await ingestChecked(projectExternalId, headers, body);
  } catch (e) {
    // A name this process never saw with a stream is a stranger's (or not yet loaded): not noted, no series.
    // The webhook-id as sent, whether or not the other signature headers came with it.
    const webhookId = headers.get("webhook-id") ?? headers.get("svix-id");
    if (seenStream(projectExternalId) && noteUnreadRefusal(projectExternalId, webhookId, e)) {
      countOutcome({ externalId: projectExternalId }, "refused");
    }
    throw e;
  }
}

async function ingestChecked(projectExternalId: string, headers: Headers, body: () => BodySource): Promise<IngestResult> {
  const limits = ingestLimits();
  const declared = declaredLength(headers);
  if (declared !== null && declared > limits.maxBytes) throw deliveryTooLarge(limits.maxBytes);

  let stream = await streamKeys(projectExternalId);
  // The same answer as a bad signature: an unknown project says nothing about which exist.
  if (!stream) return fail(401, "invalid_signature", "The delivery could not be verified.");
  const project = { id: stream.projectId, externalId: projectExternalId };
  // The request's log line names the project once it is one the dashboard knows.
  const context = requestContext();
  if (context) context.project = projectExternalId;
  const claim = readSignatureClaim(headers);
  // What the delivery log shows of who sent it (./delivery-log.ts): the header as it came, for a refused one too.
  const webhookId = signatureHeaders(headers)?.id ?? null;
  if (!claim.ok) return refused(project, { ok: false, reason: claim.reason, signed: false }, webhookId, null);
  // With a timestamp out of tolerance the delivery is refused whatever its body; it is read
  // only as far as every delivery holds anyway (MIN_HOLD_BYTES), enough to tell the service's
  // late delivery (its clock, deliveries held up: polling) from a stranger's, who can claim any
  // timestamp, and 1 MB with it.
  const late = timestampProblem(claim.claim);
  const unreadLate = () =>
    refused(project, { ok: false, reason: `${late}; not verified: with a late timestamp only a body of at most ${MIN_HOLD_BYTES / 1024} KB is read`, signed: false }, webhookId, null);
  if (late && declared !== null && declared > MIN_HOLD_BYTES) return unreadLate();

  // Held the way every request body is: what has arrived, out of the slice its declared size may use.
  const { hold, full } = holdBody(limits.budget, networkOf(clientAddress(headers)), declared);
  if (!hold) throw ingestBusy(full);
  try {
    const check = new SignatureCheck(stream.keys, claim.claim);
    let raw: Buffer;
    try {
      raw = await readDeliveryBody(body(), late ? { ...limits, maxBytes: MIN_HOLD_BYTES } : limits, hold, check);
    } catch (e) {
      if (late && isAppError(e) && e.status === 413) return unreadLate();
      throw e;
    }
    let verified = verdict(claim.claim, check.matches());
    if (!verified.ok && !verified.signed) {
      // Another instance may have reconnected the stream since the keys were loaded.
      const fresh = await refreshedStreamKeys(projectExternalId, stream);
      if (fresh) {
        stream = fresh;
        verified = verifyDelivery(stream.keys, raw, headers);
      }
    }
    if (!verified.ok) return refused(project, verified, webhookId, raw);
    return await recordVerified(project, verified.id, raw);
  } finally {
    hold.release();
  }
}

/** One delivery whose body is already in memory (tests and tools); the same checks. */
export function ingestDelivery(projectExternalId: string, raw: string, headers: Headers): Promise<IngestResult> {
  return ingestStream(projectExternalId, headers, () => bytesBody(Buffer.from(raw)));
}

type ProjectRef = { id: string; externalId: string };

/** The delivery's outcome on /api/metrics; a project only the dashboard knows, never a name a stranger posted to (that is refused before). */
type DeliveryOutcome = "recorded" | "duplicate" | "unusable" | "refused";
const countOutcome = (project: Pick<ProjectRef, "externalId">, outcome: DeliveryOutcome) => series().deliveries.inc({ project: project.externalId, outcome });

function refused(project: ProjectRef, why: Extract<VerifyResult, { ok: false }>, webhookId: string | null, raw: Buffer | null): IngestResult {
  countDelivery(project, "refused", why.reason, console, { signed: why.signed });
  noteDelivery({ projectId: project.id, webhookId, verified: false, signature: why.reason, outcome: "refused", reason: why.reason, raw });
  countOutcome(project, "refused");
  return fail(401, "invalid_signature", "The delivery could not be verified (signature or timestamp).");
}

async function recordVerified(project: ProjectRef, webhookId: string, raw: Buffer): Promise<IngestResult> {
  let json: unknown;
  try {
    // As a web Request's text(): UTF-8, malformed bytes replaced, a leading BOM dropped.
    json = cleanJson(JSON.parse(new TextDecoder().decode(raw)));
  } catch {
    // A syntax error, or nesting too deep for the parser.
    return unusable(project, "the body is not JSON", webhookId, raw);
  }
  if (Array.isArray(json) && json.length > MAX_DELIVERY_EVENTS) {
    // Acknowledged, not refused: a Standard Webhooks sender retries any non-2xx (the interface
    // does not say otherwise), and this body would be refused again each time.
    return unusable(project, `the delivery is a list of ${json.length} events; at most ${MAX_DELIVERY_EVENTS} are taken from one delivery`, webhookId, raw);
  }
  // One event per delivery, or a list of them (one webhook-id for the list: each gets `#n`).
  const key = eventKey(webhookId);
  const items = Array.isArray(json) ? json.map((item, i) => ({ key: `${key}#${i}`, read: readEvent(item) })) : [{ key, read: readEvent(json) }];
  const usable = items.flatMap((i) => (i.read.ok ? [{ key: i.key, event: i.read.event }] : []));
  if (usable.length === 0) {
    const first = items[0]?.read;
    return unusable(project, first && !first.ok ? first.reason : "the payload is an empty list", webhookId, raw);
  }

  const fresh = await recordDelivery(usable.map(({ key, event }) => ({ projectId: project.id, key, event })));
  usable.forEach(({ event }, i) => {
    if (fresh[i]) invalidateMessage(project.id, event.messageId);
  });
  countDelivery(project, "accepted");
  // Every event of it taken before (the service retried a delivery we had answered): a duplicate.
  const outcome = fresh.some(Boolean) ? "recorded" : "duplicate";
  countOutcome(project, outcome);
  const first = usable[0]!.event;
  // A list names its first event and how many came with it (a message's past arrives so from the local service).
  const eventType = usable.length > 1 ? `${first.type} and ${usable.length - 1} more` : first.type;
  noteDelivery({ projectId: project.id, webhookId: key, verified: true, signature: "verified", outcome, eventType, messageId: first.messageId, raw });
  nudgeRereads(env().REREAD_COALESCE_MS);
  return { status: 204 };
}

function unusable(project: ProjectRef, reason: string, webhookId: string, raw: Buffer): IngestResult {
  countDelivery(project, "unusable", reason);
  noteDelivery({ projectId: project.id, webhookId: eventKey(webhookId), verified: true, signature: "verified", outcome: "unusable", reason, raw });
  countOutcome(project, "unusable");
  return { status: 202, body: { received: true, used: false, reason } };
}

/** Keys longer than this are stored as their hash: the key is in a btree index, whose rows Postgres caps at about 2.7 KB. */
const MAX_KEY_CHARS = 200;

/** The key an event is taken once by: the `webhook-id`, or its SHA-256 when it is long. */
function eventKey(webhookId: string): string {
  return webhookId.length <= MAX_KEY_CHARS ? webhookId : `sha256:${createHash("sha256").update(webhookId).digest("hex")}`;
}
