import "server-only";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { env } from "@/lib/server/env";
import { invalidateMessage } from "@/lib/server/messages/read";
import { nudgeRereads } from "@/lib/server/rereads/worker";
import { countDelivery } from "./health";
import { readEvent } from "./payload";
import { recordDelivery } from "./group-commit";
import { refreshedStreamKeys, streamKeys } from "./stream-cache";
import { verifyDelivery } from "./verify";

export type IngestResult = { status: number; body?: Record<string, unknown> };

const fail = (status: number, code: string, message: string): IngestResult => ({ status, body: { error: { message, code } } });

/**
 * One signed delivery from the service. The stream is a notification: the message read back
 * from the service is the truth (lib/server/rereads). So:
 *
 * - the signature is checked on the raw bytes (Standard Webhooks, also under `svix-*` header
 *   names; see ./verify.ts): a delivery that does not verify is refused with 401;
 * - a delivery that verifies is never refused for its shape. The message id is looked for in
 *   the documented places (./payload.ts); the event is recorded once per `webhook-id`, the
 *   index updated provisionally, and a re-read of the message queued — together with the
 *   other deliveries arriving meanwhile, in one transaction (./group-commit.ts). Answer: 204,
 *   once that transaction has committed, so the message is searchable when the service hears it;
 * - a verified delivery the dashboard cannot use (not JSON, no message id) is counted with its
 *   reason on the webhooks screen and acknowledged with 202, so the service stops retrying it.
 *
 * Nothing here calls the service, and no counter row is written per delivery (./health.ts).
 */
export async function ingestDelivery(projectExternalId: string, raw: string, headers: Headers): Promise<IngestResult> {
  if (Buffer.byteLength(raw) > MAX_REQUEST_BYTES) return fail(413, "payload_too_large", "The delivery is too large.");
  let stream = await streamKeys(projectExternalId);
  // The same answer as a bad signature: an unknown project says nothing about which exist.
  if (!stream) return fail(401, "invalid_signature", "The delivery could not be verified.");

  let verified = verifyDelivery(stream.keys, raw, headers);
  if (!verified.ok) {
    // Another instance may have reconnected the stream since the keys were loaded.
    const fresh = await refreshedStreamKeys(projectExternalId, stream);
    if (fresh) {
      stream = fresh;
      verified = verifyDelivery(stream.keys, raw, headers);
    }
  }
  const project = { id: stream.projectId, externalId: projectExternalId };
  if (!verified.ok) {
    countDelivery(project, "refused", verified.reason);
    return fail(401, "invalid_signature", "The delivery could not be verified (signature or timestamp).");
  }

  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return unusable(project, "the body is not JSON");
  }
  // One event per delivery, or a list of them (one webhook-id for the list: each gets `#n`).
  const items = Array.isArray(json) ? json.map((item, i) => ({ key: `${verified.id}#${i}`, read: readEvent(item) })) : [{ key: verified.id, read: readEvent(json) }];
  const usable = items.flatMap((i) => (i.read.ok ? [{ key: i.key, event: i.read.event }] : []));
  if (usable.length === 0) {
    const first = items[0]?.read;
    return unusable(project, first && !first.ok ? first.reason : "the payload is an empty list");
  }

  const fresh = await recordDelivery(usable.map(({ key, event }) => ({ projectId: project.id, key, event })));
  usable.forEach(({ event }, i) => {
    if (fresh[i]) invalidateMessage(project.id, event.messageId);
  });
  countDelivery(project, "accepted");
  nudgeRereads(env().REREAD_COALESCE_MS);
  return { status: 204 };
}

function unusable(project: { id: string; externalId: string }, reason: string): IngestResult {
  countDelivery(project, "unusable", reason);
  return { status: 202, body: { received: true, used: false, reason } };
}

