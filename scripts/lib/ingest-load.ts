import http from "node:http";
import { performance } from "node:perf_hooks";
import { createHmac } from "node:crypto";

/**
 * The deliveries of `bench:ingest`: messages whose events a service would announce (sent,
 * delivered, opened for a third), each as a signed delivery in one of two shapes — the
 * bundled service's (`{ type, createdAt, data: { messageId, … } }`, `webhook-*` headers) and
 * a foreign one (`{ type: "email.delivered", created_at, data: { email_id, … } }`, `svix-*`
 * headers, as Resend and Svix-based services send) — and an HTTP sender over a fixed number
 * of kept-alive connections.
 */
export type BenchMessage = { id: string; n: number; to: string; subject: string; shape: "bundled" | "foreign"; events: ("sent" | "delivery" | "open")[]; sampled: boolean };
export type Delivery = { message: BenchMessage; step: number; key: string; duplicate: boolean };

const FOREIGN_WORD = { sent: "email.sent", delivery: "email.delivered", open: "email.opened" } as const;
const STATUS_AFTER = { sent: "sent", delivery: "delivered", open: "delivered" } as const;

export function benchMessage(run: string, n: number, sampleEvery: number): BenchMessage {
  return {
    id: `msg_${run}_${n.toString(36).padStart(6, "0")}`,
    n,
    to: `reader.${run}.${n}@bench.example.com`,
    subject: `Your order #${100000 + n} has shipped`,
    shape: n % 3 === 2 ? "foreign" : "bundled",
    events: n % 3 === 0 ? ["sent", "delivery", "open"] : ["sent", "delivery"],
    sampled: n % sampleEvery === 0,
  };
}

/** The message as the service would answer GET /v1/emails/{id} once every event happened. */
export function serviceView(m: BenchMessage) {
  const at = new Date().toISOString();
  return {
    id: m.id, from: "Acme <hello@acme.test>", to: [m.to], subject: m.subject, status: "Delivered", direction: "outbound" as const, createdAt: at,
    events: m.events.map((e) => ({ type: FOREIGN_WORD[e], createdAt: at })),
  };
}

const keys = new Map<string, Buffer>();

/**
 * A Standard Webhooks signature (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`
 * under the secret's key) made with Node's HMAC: the `standardwebhooks` package's JavaScript
 * SHA-256 cost this load generator, on the same 2 cores as the dashboard, more CPU per
 * delivery than the dashboard spent taking it in.
 */
export function standardSignature(secret: string, id: string, at: Date, body: string): string {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = Buffer.from(secret.replace(/^whsec_/, ""), "base64")));
  return `v1,${createHmac("sha256", key).update(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`).digest("base64")}`;
}

/** The body and signed headers of one delivery, signed now. */
export function signedDelivery(d: Delivery, secret: string): { body: string; headers: Record<string, string> } {
  const m = d.message;
  const event = m.events[d.step]!;
  const at = new Date();
  const body =
    m.shape === "bundled"
      ? JSON.stringify({
          type: event,
          createdAt: at.toISOString(),
          data: {
            messageId: m.id, project: "bench", direction: "outbound", from: "Acme <hello@acme.test>", to: [m.to], subject: m.subject, status: STATUS_AFTER[event],
            eventData: event === "delivery" ? { recipient: m.to, diagnostic: "250 2.0.0 OK" } : event === "open" ? { recipient: m.to, userAgent: "Mozilla/5.0" } : { mode: "smtp" },
          },
        })
      : JSON.stringify({ type: FOREIGN_WORD[event], created_at: at.toISOString(), data: { email_id: m.id, from: "Acme <hello@acme.test>", to: [m.to], subject: m.subject, created_at: at.toISOString() } });
  const prefix = m.shape === "bundled" ? "webhook" : "svix";
  return {
    body,
    headers: {
      "content-type": "application/json",
      [`${prefix}-id`]: d.key,
      [`${prefix}-timestamp`]: String(Math.floor(at.getTime() / 1000)),
      [`${prefix}-signature`]: standardSignature(secret, d.key, at, body),
    },
  };
}

/**
 * `count` deliveries at `rate` a second: new messages start, and each one's next event
 * follows about 300 ms after the one before, as a service's lifecycle would. A share of them
 * (`duplicateShare`) is marked to be sent twice at once.
 */
export function plan(opts: { run: string; firstMessage: number; count: number; rate: number; duplicateShare: number; sampleEvery: number; keyPrefix: string }): { deliveries: Delivery[]; messages: BenchMessage[] } {
  const deliveries: Delivery[] = [];
  const messages: BenchMessage[] = [];
  const gap = Math.max(1, Math.round(opts.rate * 0.3));
  const follow: { due: number; message: BenchMessage; step: number }[] = [];
  let next = opts.firstMessage;
  for (let k = 0; k < opts.count; k++) {
    let message: BenchMessage;
    let step: number;
    if (follow.length && follow[0]!.due <= k) {
      ({ message, step } = follow.shift()!);
    } else {
      message = benchMessage(opts.run, next++, opts.sampleEvery);
      messages.push(message);
      step = 0;
    }
    if (step + 1 < message.events.length) follow.push({ due: k + gap, message, step: step + 1 });
    // A fixed pattern, the same in every run.
    const duplicate = opts.duplicateShare > 0 && (k * 7919) % 1000 < opts.duplicateShare * 1000;
    deliveries.push({ message, step, key: `${opts.keyPrefix}_${message.n}_${step}`, duplicate });
  }
  return { deliveries, messages };
}

export type Answer = { status: number; ms: number; endedAt: number };

/** POSTs over at most `connections` kept-alive sockets; the time counts from when the request was due. */
export function sender(baseURL: string, connections: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(baseURL);
  const post = (path: string, body: string, headers: Record<string, string>, dueAt = performance.now()): Promise<Answer> =>
    new Promise((resolve) => {
      const req = http.request({ agent, host: url.hostname, port: url.port, path, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on("end", () => {
          const endedAt = performance.now();
          resolve({ status: res.statusCode ?? 0, ms: endedAt - dueAt, endedAt });
        });
      });
      req.on("error", () => {
        const endedAt = performance.now();
        resolve({ status: 0, ms: endedAt - dueAt, endedAt });
      });
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
