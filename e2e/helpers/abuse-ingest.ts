import { randomBytes } from "node:crypto";
import { request } from "node:http";
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

const CHUNK = Buffer.alloc(256 * 1024, "x");

export type FloodAnswer = { status: number; text: string; retryAfter: string | null; sentMB: number; ms: number; error: string | null };

/**
 * `count` POSTs of `bytes` each to `url` at once, none signed, and each sent again when
 * answered, `rounds` times: the ones where `chunked(i)` holds without a Content-Length (the
 * server learns the size only by reading), `headers(i)` added. One shared 256 KB buffer is
 * written again and again, so the suite holds kilobytes, not `count × bytes`. A request
 * stops writing once answered; one unanswered after `deadlineMs` is cut.
 */
export async function flood(url: string, o: { count: number; rounds: number; bytes: number; chunked: (i: number) => boolean; headers?: (i: number) => Record<string, string>; deadlineMs: number }): Promise<FloodAnswer[]> {
  const answers: FloodAnswer[] = [];
  await Promise.all(
    Array.from({ length: o.count }, async (_, i) => {
      for (let r = 0; r < o.rounds; r++) answers.push(await floodOne(url, i, o));
    }),
  );
  return answers;
}

function floodOne(url: string, i: number, o: { bytes: number; chunked: (i: number) => boolean; headers?: (i: number) => Record<string, string>; deadlineMs: number }): Promise<FloodAnswer> {
  return new Promise<FloodAnswer>((resolve) => {
    const started = performance.now();
    let sent = 0;
    let done = false;
    const finish = (a: Omit<FloodAnswer, "sentMB" | "ms">) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...a, sentMB: Math.round((sent / 1024 / 1024) * 10) / 10, ms: Math.round(performance.now() - started) });
      req.destroy();
    };
    const req = request(url, {
      method: "POST",
      agent: false,
      headers: { "Content-Type": "application/json", ...o.headers?.(i), ...(o.chunked(i) ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(o.bytes) }) },
    });
    const timer = setTimeout(() => finish({ status: 0, text: "", retryAfter: null, error: `no answer within ${o.deadlineMs / 1000} s` }), o.deadlineMs);
    req.on("response", (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      const end = () => finish({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString("utf8").slice(0, 500), retryAfter: (res.headers["retry-after"] as string | undefined) ?? null, error: null });
      res.on("end", end);
      res.on("error", end);
    });
    req.on("error", (e) => setTimeout(() => finish({ status: 0, text: "", retryAfter: null, error: e.message }), 200));
    const pump = () => {
      while (!done && sent < o.bytes) {
        const piece = o.bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, o.bytes - sent);
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}
