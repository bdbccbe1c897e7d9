import { json, startHttpServer, type RecordedRequest } from "@/lib/server/test-helpers";

/**
 * Test-only: a small real HTTP service that speaks the interface and chooses differently
 * from `service/` where the interface says "not shown": capitalised status words, dotted
 * event words, no thread field, a simulate answer that wraps the id in `data`, a signing
 * secret without the `whsec_` prefix. Tests change its messages and make it rate-limit or
 * hold its answers.
 */
export type ForeignMessage = {
  id: string;
  from: string;
  to: string[];
  subject: string | null;
  status: string;
  direction: "inbound" | "outbound";
  createdAt: string;
  events: { type: string; createdAt?: string; data?: Record<string, unknown> }[];
  inReplyTo?: string;
  threadId?: string;
};

export const FOREIGN_SECRET = Buffer.from("foreign-service-signing-key-0001").toString("base64");

export type ForeignService = {
  url: string;
  messages: Map<string, ForeignMessage>;
  /** GETs of one message so far. */
  reads: (id: string) => number;
  /** Answers of GET /v1/emails/{id} this many times with 429 (and this Retry-After, if any). */
  rateLimit: (times: number, retryAfter?: string) => void;
  /** While set, GET /v1/emails/{id} waits for it before answering. */
  hold: (until: Promise<void> | null) => void;
  /**
   * What GET /v1/emails/{id} answers for a message it does not have (null: the default, a 404
   * `{ message: "no email <id>" }`). The interface names no answer for an unknown message.
   */
  answerUnknown: (answer: ((id: string) => { status: number; body: unknown }) | null) => void;
  /** While true, every GET /v1/emails/{id} is a 403, as for a key the service no longer takes for the project. */
  refuseReads: (on: boolean) => void;
  /** The most GETs of messages under way at once. */
  maxConcurrentReads: () => number;
  /**
   * Projects that cannot have a webhook (the service answers 403): registering a project on a
   * loopback service connects its stream in the background, and a test may want one without.
   */
  refuseWebhooks: Set<string>;
  /** What POST /v1/inbound/simulate answers (default `{ data: { id } }`). */
  simulateAnswer: (make: (id: string, body: Record<string, unknown>) => unknown) => void;
  requests: RecordedRequest[];
  close: () => Promise<void>;
};

export async function startForeignService(): Promise<ForeignService> {
  const messages = new Map<string, ForeignMessage>();
  const readCounts = new Map<string, number>();
  let limited = 0;
  let retryAfter: string | undefined;
  let held: Promise<void> | null = null;
  let concurrent = 0;
  let maxConcurrent = 0;
  let next = 0;
  let unknownAnswer: ((id: string) => { status: number; body: unknown }) | null = null;
  let readsRefused = false;
  let simulate = (id: string, _body: Record<string, unknown>): unknown => ({ data: { id, received: true } });
  const refuseWebhooks = new Set<string>();

  const server = await startHttpServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const read = /^\/v1\/emails\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && read) {
      const id = decodeURIComponent(read[1]);
      readCounts.set(id, (readCounts.get(id) ?? 0) + 1);
      if (limited > 0) {
        limited--;
        return json(res, 429, { message: "slow down" }, retryAfter ? { "Retry-After": retryAfter } : {});
      }
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        if (held) await held;
        if (readsRefused) return json(res, 403, { message: "this key may not read this project's emails" });
        const m = messages.get(id);
        if (!m && unknownAnswer) {
          const { status, body } = unknownAnswer(id);
          return json(res, status, body);
        }
        if (!m) return json(res, 404, { message: `no email ${id}` });
        return json(res, 200, { object: "email", ...m, events: m.events.map((e) => ({ ...e })) });
      } finally {
        concurrent--;
      }
    }
    const reply = /^\/v1\/emails\/([^/]+)\/reply$/.exec(url.pathname);
    if (req.method === "POST" && reply) {
      const original = messages.get(decodeURIComponent(reply[1]));
      if (!original) return json(res, 404, { message: "no such email" });
      const body = JSON.parse(req.body) as { text?: string; subject?: string };
      const id = `em-${String(++next).padStart(4, "0")}`;
      const from = original.direction === "inbound" ? original.to[0] : original.from;
      const to = original.direction === "inbound" ? [original.from] : original.to;
      messages.set(id, { id, from, to, subject: body.subject ?? `Re: ${original.subject ?? ""}`, status: "Queued", direction: "outbound", createdAt: new Date().toISOString(), events: [{ type: "email.queued", createdAt: new Date().toISOString() }] });
      return json(res, 200, { id, status: "queued" });
    }
    if (req.method === "POST" && url.pathname === "/v1/inbound/simulate") {
      const body = JSON.parse(req.body) as { from: string; to: string; subject: string; text?: string };
      const id = `in-${String(++next).padStart(4, "0")}`;
      const at = new Date().toISOString();
      messages.set(id, { id, from: body.from, to: [body.to], subject: body.subject, status: "Received", direction: "inbound", createdAt: at, events: [{ type: "inbound.received", createdAt: at }] });
      return json(res, 200, simulate(id, body));
    }
    if (req.method === "POST" && url.pathname === "/v1/webhooks") {
      if (refuseWebhooks.has(String(req.headers["x-service-product"]))) return json(res, 403, { message: "webhooks are not enabled for this project" });
      const body = JSON.parse(req.body);
      return json(res, 200, { id: `hook-${++next}`, url: body.url, enabled: true, eventTypes: body.eventTypes, signingSecret: FOREIGN_SECRET, createdAt: new Date().toISOString() });
    }
    if (req.method === "GET" && /^\/v1\/emails\/[^/]+\/attachments$/.test(url.pathname)) return json(res, 200, { data: [] });
    // What the dashboard asks when it registers a project (SERVICE_PROJECTS): the project exists.
    if (req.method === "GET" && url.pathname === "/v1/templates") return json(res, 200, { data: [] });
    return json(res, 404, { message: "not here" });
  });

  return {
    url: server.url,
    messages,
    reads: (id) => readCounts.get(id) ?? 0,
    rateLimit: (times, after) => {
      limited = times;
      retryAfter = after;
    },
    hold: (until) => {
      held = until;
    },
    answerUnknown: (answer) => {
      unknownAnswer = answer;
    },
    refuseReads: (on) => {
      readsRefused = on;
    },
    maxConcurrentReads: () => maxConcurrent,
    refuseWebhooks,
    simulateAnswer: (make) => {
      simulate = make;
    },
    requests: server.requests,
    close: server.close,
  };
}

/** A message as the foreign service keeps it. */
export function foreignMessage(id: string, status: string, extra: Partial<ForeignMessage> = {}): ForeignMessage {
  const at = new Date(Date.now() - 2_000).toISOString();
  return {
    id,
    from: "Shop <shop@acme.test>",
    to: ["ada@example.com"],
    subject: "Your order",
    status,
    direction: "outbound",
    createdAt: at,
    events: [
      { type: "email.sent", createdAt: at },
      ...(status === "Delivered" ? [{ type: "email.delivered", createdAt: new Date().toISOString(), data: { smtp: "250 ok" } }] : []),
    ],
    ...extra,
  };
}
