import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { standardSignature } from "../../scripts/lib/ingest-load";

/** Deliveries for the ingest route: signed as the local service signs them, or a flood of unsigned bytes. */

export const ingestPath = (project: string) => `/api/ingest/${encodeURIComponent(project)}`;

/** One event in the local service's delivery shape (service/lib/events.ts webhookPayloadOf). */
export function serviceEvent(type: string, messageId: string, fields: { to?: string; subject?: string; status?: string; project?: string } = {}) {
  return {
    type,
    createdAt: new Date().toISOString(),
    data: {
      messageId,
      ...(fields.project ? { project: fields.project } : {}),
      direction: "outbound",
      from: "Abuse suite <abuse@acme.test>",
      to: fields.to ? [fields.to] : [],
      subject: fields.subject ?? null,
      status: fields.status ?? type,
      eventData: {},
    },
  };
}

/** A delivery of `payload` (an event, a list of them, or raw text) signed with the stream's secret. */
export function signed(secret: string, payload: unknown): { body: string; headers: Record<string, string> } {
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const id = `msg_abuse_${randomBytes(8).toString("hex")}`;
  const at = new Date();
  return {
    body,
    headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": standardSignature(secret, id, at, body) },
  };
}

export type FloodAnswer = { status: number; text: string; retryAfter: string | null; sentMB: number; ms: number; error: string | null };

const FLOOD_THREAD = fileURLToPath(new URL("./flood-thread.cjs", import.meta.url));

/**
 * `count` POSTs of `bytes` each to `url` at once, none signed, and each sent again when
 * answered, `rounds` times: the ones where `chunked(i)` holds without a Content-Length (the
 * server learns the size only by reading), `headers(i)` added. Sent from a thread of its own
 * (./flood-thread.cjs), so the test's clock and its other requests do not wait on the writing.
 */
export function flood(url: string, o: { count: number; rounds: number; bytes: number; chunked: (i: number) => boolean; headers?: (i: number) => Record<string, string>; deadlineMs: number }): Promise<FloodAnswer[]> {
  const specs = Array.from({ length: o.count }, (_, i) => ({ chunked: o.chunked(i), headers: o.headers?.(i) ?? {} }));
  return new Promise((resolve, reject) => {
    const thread = new Worker(FLOOD_THREAD, { workerData: { url, specs, rounds: o.rounds, bytes: o.bytes, deadlineMs: o.deadlineMs } });
    thread.once("message", (answers: FloodAnswer[]) => resolve(answers));
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`the flood's thread ended (exit code ${code}) before it answered`)));
  });
}
