import "server-only";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import type { Actor, Project } from "@/lib/server/gate/access";
import { cleanJson, readEvent } from "@/lib/server/message-index/payload";
import { invalidateMessage } from "@/lib/server/message-index/read";
import { enqueueRereads } from "@/lib/server/message-index/reread-queue";
import { nudgeRereads } from "@/lib/server/message-index/reread-worker";
import { MAX_DELIVERY_EVENTS } from "./ingest-limits";
import type { ProcessAgainResult } from "@/lib/schemas/webhook-deliveries";
import { canProcessAgain, readDelivery } from "./delivery-log";
import { recordDelivery } from "./group-commit";

/**
 * "Process again" on the delivery log: the delivery the log kept is not the one that arrived —
 * its body is redacted (addresses masked) and maybe cut — so what runs again is honest about it:
 *
 * - a whole stored body is read and recorded as a fresh delivery is, through the ingest's group
 *   commit under the same keys (the `webhook-id`, `#n` per event of a list): an event already
 *   recorded stays recorded once (a duplicate), an unusable one is read with today's reader;
 * - the message it names (found now, or when it arrived) is then queued to be read again from
 *   the service, whose answer replaces whatever the masked body pictured — that is what makes it
 *   worth doing for a recorded delivery.
 *
 * A body cut at DELIVERY_LOG.bodyChars without a message id has nothing to run: a 409 says so.
 * Audited, with the outcome.
 */
export async function processAgain(project: Project, actor: Actor, id: string): Promise<ProcessAgainResult> {
  const row = await readDelivery(project.id, id);
  if (!row) throw new AppError(404, "not_found", "No such delivery in the log (only the newest 200, and 50 refused or unusable ones before them, are kept).");
  if (!canProcessAgain(row)) {
    const why = !row.verified || row.outcome === "refused" ? "it was refused: its signature did not verify" : "its stored body was cut and names no message";
    throw new AppError(409, "conflict", `This delivery cannot be processed again: ${why}.`);
  }
  const audit = { actor, action: "webhook.delivery.process", project: project.externalId, target: row.webhookId };
  try {
    const result = await run(project, row.webhookId ?? row.id, row.body !== null && !row.bodyCut ? row.body : null, row.messageId);
    await recordAudit({ ...audit, outcome: "success", detail: { outcome: result.outcome, reread: result.reread.length } });
    return result;
  } catch (e) {
    await recordAudit({ ...audit, outcome: "failure", detail: { error: e instanceof AppError ? e.code : "internal_error" } }).catch(() => {});
    throw e;
  }
}

async function run(project: Project, key: string, body: string | null, storedMessageId: string | null): Promise<ProcessAgainResult> {
  let outcome: ProcessAgainResult["outcome"] = "reread";
  let reason: string | null = null;
  const ids = new Set<string>(storedMessageId ? [storedMessageId] : []);
  if (body !== null) {
    const read = readBody(body);
    if (typeof read === "string") {
      outcome = "unusable";
      reason = read;
    } else {
      // The keys the ingest gave them: the key alone, or `#n` by the event's place in the list.
      const items = read.map((r) => ({ key: r.at === null ? key : `${key}#${r.at}`, event: r.event }));
      const fresh = await recordDelivery(items.map(({ key: k, event }) => ({ projectId: project.id, key: k, event })));
      outcome = fresh.some(Boolean) ? "recorded" : "duplicate";
      for (const { event } of items) ids.add(event.messageId);
    }
  }
  const reread = [...ids];
  if (reread.length) {
    await enqueueRereads(await db(), project.id, reread, "event");
    for (const m of reread) invalidateMessage(project.id, m);
    nudgeRereads(0);
  }
  return { outcome, reason, reread };
}

type Read = { event: Extract<ReturnType<typeof readEvent>, { ok: true }>["event"]; at: number | null };

/** The stored body's usable events (as ./ingest.ts reads a delivery), or why there are none. */
function readBody(body: string): Read[] | string {
  let json: unknown;
  try {
    json = cleanJson(JSON.parse(body));
  } catch {
    return "the body is not JSON";
  }
  const list = Array.isArray(json);
  const items = list ? (json as unknown[]) : [json];
  if (items.length > MAX_DELIVERY_EVENTS) return `the delivery is a list of ${items.length} events; at most ${MAX_DELIVERY_EVENTS} are taken from one delivery`;
  const reads = items.map(readEvent);
  const usable = reads.flatMap((r, i) => (r.ok ? [{ event: r.event, at: list ? i : null }] : []));
  if (usable.length) return usable;
  const first = reads[0];
  return first && !first.ok ? first.reason : "the payload is an empty list";
}
