import { readdirSync, readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BOUNCE_REASON } from "@/e2e/contrarian-service/src/lifecycle";
import { IMPLEMENTATIONS, type Implementation, type RecordedExchange } from "@/e2e/contrarian-service/recording/format";
import { isAppError, type AppError } from "@/lib/errors";
import { canonicalEventType, canonicalStatus, CANONICAL_EVENT_TYPES } from "@/lib/messages/vocabulary";
import type { SendEmail } from "@/lib/schemas/emails";
import type { Project } from "../gate/access";
import { listDomains } from "../domains/manage";
import { refusedByService } from "@/lib/server/message-index/disowned";
import { setTestEnv, startHttpServer, type RecordedRequest, type TestServer } from "../test-helpers";
import { service } from "./index";

/**
 * Real answers of two implementations of the interface — the bundled service and the
 * contrarian (e2e/contrarian-service, which chooses differently wherever the interface is
 * silent) — recorded by e2e/contrarian-service/record-answers.ts and replayed over real HTTP
 * to the dashboard's service wrappers. Each operation must read the same facts from both:
 * ids, statuses, events with a type and a time, pages, and errors as AppError naming the field.
 */
const RECORDED = fileURLToPath(new URL("../../../e2e/contrarian-service/recorded/", import.meta.url));

function load(implementation: Implementation): Map<string, RecordedExchange> {
  const dir = `${RECORDED}${implementation}/`;
  const all = readdirSync(dir).filter((f) => f.endsWith(".json"));
  return new Map(all.map((f) => JSON.parse(readFileSync(dir + f, "utf8")) as RecordedExchange).map((e) => [e.name, e]));
}

/** What each implementation says in its own words, for the checks that compare text. */
const SAYS: Record<Implementation, { bounceReason: string; unfamiliarFinal: string; newDomain: string }> = {
  bundled: { bounceReason: "550 5.1.1", unfamiliarFinal: "failed", newDomain: "recorded.test" },
  contrarian: { bounceReason: BOUNCE_REASON, unfamiliarFinal: "expired", newDomain: "recorded.example.net" },
};

/** A field path in the dashboard's dotted form, whatever notation the service used (`to[0].email`, `/to/0/email`). */
const dotted = (param: string | null | undefined) =>
  (param ?? "").replace(/\[(\d+)\]/g, ".$1").replace(/^\//, "").replace(/\//g, ".").replace(/^\./, "");

let server: TestServer;
/** The answers the server gives next, in order; a request that does not match its answer is a mismatch. */
let queue: RecordedExchange[] = [];
const mismatches: string[] = [];
const answeredAt: number[] = [];

function answer(req: RecordedRequest, res: ServerResponse): void {
  const next = queue.shift();
  const got = new URL(req.url, "http://replay");
  if (!next) {
    mismatches.push(`${req.method} ${req.url}: no recorded answer left`);
    res.writeHead(599).end();
    return;
  }
  const want = new URL(next.request.path, "http://replay");
  const wantCursor = want.searchParams.get("cursor");
  if (req.method !== next.request.method || decodeURIComponent(got.pathname) !== decodeURIComponent(want.pathname) || (wantCursor !== null && got.searchParams.get("cursor") !== wantCursor)) {
    mismatches.push(`${req.method} ${req.url} asked, but the recorded answer is to ${next.request.method} ${next.request.path}`);
    res.writeHead(599).end();
    return;
  }
  const headers = { ...next.response.headers };
  // An HTTP-date Retry-After points as far ahead of now as it did when recorded.
  if (next.retryAfterMs !== undefined) headers["retry-after"] = new Date(Date.now() + next.retryAfterMs).toUTCString();
  answeredAt.push(Date.now());
  res.writeHead(next.response.status, headers);
  res.end(next.response.body);
}

beforeAll(async () => {
  server = await startHttpServer(answer);
  setTestEnv({ SERVICE_URL: `${server.url}/`, SERVICE_API_KEY: "replayed-key", SERVICE_TIMEOUT_MS: "10000" });
});
afterAll(() => server.close());
beforeEach(() => {
  queue = [];
  mismatches.length = 0;
  answeredAt.length = 0;
  server.requests.length = 0;
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(isAppError(e), `an AppError, not ${String(e)}`).toBe(true);
    return e as AppError;
  }
  throw new Error("expected the call to fail");
}

/** `unfamiliar`: words the service may use beyond the interface's types, kept as it said them. */
function expectEventsReadable(events: { type: string; createdAt?: string }[], unfamiliar: string[] = []): void {
  expect(events.length).toBeGreaterThan(0);
  for (const e of events) {
    const known = (CANONICAL_EVENT_TYPES as readonly string[]).includes(canonicalEventType(e.type));
    expect(known || unfamiliar.includes(e.type.toLowerCase()), `event type "${e.type}" is one the dashboard knows or kept as the service said it`).toBe(true);
    expect(e.createdAt, `event "${e.type}" has a time`).toBeTruthy();
    expect(Number.isNaN(Date.parse(e.createdAt!)), `event time "${e.createdAt}" is a date`).toBe(false);
  }
}

describe.each(IMPLEMENTATIONS)("recorded answers of the %s implementation", (implementation) => {
  const recorded = load(implementation);
  const says = SAYS[implementation];
  const project = recorded.get("emails.send")!.request.headers["X-Service-Product"];
  const projectRow: Project = { id: "replayed-project", externalId: project, name: project, createdAt: new Date(0).toISOString() };
  const json = (name: string) => JSON.parse(exchange(name).response.body);
  const body = <T>(name: string) => exchange(name).request.body as T;
  const idIn = (name: string) => decodeURIComponent(exchange(name).request.path.split("/")[3]!.split("?")[0]!);
  function exchange(name: string): RecordedExchange {
    const found = recorded.get(name);
    if (!found) throw new Error(`no recorded answer "${name}" for ${implementation}: run npx tsx e2e/contrarian-service/record-answers.ts`);
    return found;
  }
  /** The next calls get these recorded answers, in this order. */
  const replay = (...names: string[]) => {
    queue = names.map(exchange);
  };

  it("records every operation of the interface", () => {
    const operations = [
      "api-keys.create", "emails.send", "emails.batch", "emails.get.delivered", "emails.reply", "emails.attachments", "domains.list", "domains.add",
      "domains.receiving", "contacts.create", "contacts.get", "contacts.resubscribe", "templates.list", "templates.get", "templates.preview",
      "suppressions.list", "suppressions.add", "inbound.simulate", "webhooks.list", "webhooks.create", "webhooks.remove",
    ];
    expect(operations).toHaveLength(21);
    for (const name of operations) expect(recorded.has(name), name).toBe(true);
  });

  describe("messages", () => {
    it("send: the id, and queued", async () => {
      replay("emails.send");
      const sent = await service.emails.send(project, body<SendEmail>("emails.send"), "replayed-key-1");
      expect(sent.id).toBe(json("emails.send").id);
      expect(canonicalStatus(sent.status)).toBe("queued");
      expect(mismatches).toEqual([]);
    });

    it("send again with the same Idempotency-Key: the original id", async () => {
      replay("emails.send.replayed");
      const again = await service.emails.send(project, body<SendEmail>("emails.send.replayed"), "replayed-key-1");
      expect(again.id).toBe(json("emails.send").id);
    });

    it("send refused: a validation error naming the recipient field", async () => {
      replay("emails.send.invalid");
      const err = await failure(service.emails.send(project, body<SendEmail>("emails.send.invalid"), "replayed-key-2"));
      expect([400, 422]).toContain(err.status);
      expect(dotted(err.param)).toBe("to.0.email");
      expect(err.message).toMatch(/email/i);
    });

    it("batch: one id and one error naming the field, in order", async () => {
      replay("emails.batch");
      const result = await service.emails.batch(project, body<{ emails: SendEmail[] }>("emails.batch").emails);
      expect(result.data).toHaveLength(2);
      expect(result.data[0]!.id).toBe(json("emails.batch").data[0].id);
      expect(result.data[1]!.id).toBeUndefined();
      expect(dotted(result.data[1]!.error?.param)).toMatch(/(^|\.)to\.0\.email$/);
    });

    it("a message just accepted: queued, every event with a type and a time", async () => {
      replay("emails.get.queued");
      const m = await service.emails.get(project, idIn("emails.get.queued"));
      expect(m.id).toBe(idIn("emails.get.queued"));
      expect(canonicalStatus(m.status)).toBe("queued");
      expectEventsReadable(m.events);
    });

    it("a delivered message: status delivered, a delivery event, every event with a type and a time", async () => {
      replay("emails.get.delivered");
      const m = await service.emails.get(project, idIn("emails.get.delivered"));
      expect(m.id).toBe(json("emails.send").id);
      expect(m.direction).toBe("outbound");
      expect(canonicalStatus(m.status)).toBe("delivered");
      expectEventsReadable(m.events);
      expect(m.events.map((e) => canonicalEventType(e.type))).toContain("delivery");
      const times = m.events.map((e) => Date.parse(e.createdAt!));
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it("a bounced message: status bounced, and the bounce event carries the service's reason", async () => {
      replay("emails.get.bounced");
      const m = await service.emails.get(project, idIn("emails.get.bounced"));
      expect(canonicalStatus(m.status)).toBe("bounced");
      expectEventsReadable(m.events);
      const bounce = m.events.find((e) => canonicalEventType(e.type) === "bounce");
      expect(JSON.stringify(bounce?.data ?? {})).toContain(says.bounceReason);
    });

    it("a final status word the dashboard may not know: kept as the service said it", async () => {
      replay("emails.get.unfamiliar");
      const m = await service.emails.get(project, idIn("emails.get.unfamiliar"));
      expect(m.status.toLowerCase()).toBe(says.unfamiliarFinal);
      expectEventsReadable(m.events, [says.unfamiliarFinal]);
    });

    it("an unknown id: not found, which the re-read worker takes as the service's refusal of that message", async () => {
      replay("emails.get.not-found");
      const err = await failure(service.emails.get(project, idIn("emails.get.not-found")));
      expect(err.status).toBe(404);
      expect(refusedByService(err)).toBe(true);
    });

    it("reply: the new message's id, queued", async () => {
      replay("emails.reply");
      const reply = await service.emails.reply(project, idIn("emails.reply"), { text: "A follow-up." }, "replayed-key-3");
      expect(reply.id).toBe(json("emails.reply").id);
      expect(canonicalStatus(reply.status)).toBe("queued");
    });

    it("attachments: id, name, type, size and where to download", async () => {
      replay("emails.attachments");
      const list = await service.emails.attachments(project, idIn("emails.attachments"));
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({ filename: "notes.txt", contentType: "text/plain", size: Buffer.byteLength("recorded attachment") });
      expect(list.data[0]!.id).toBeTruthy();
      expect(list.data[0]!.url).toBeTruthy();
    });
  });

  describe("inbound", () => {
    it("simulate: the id of the message it made is found in the answer", async () => {
      replay("inbound.simulate");
      const result = await service.inbound.simulate(project, body("inbound.simulate"));
      expect(result.id).toBe(idIn("emails.get.inbound"));
    });

    it("the inbound message: direction inbound, received, its event with a time", async () => {
      replay("emails.get.inbound");
      const m = await service.emails.get(project, idIn("emails.get.inbound"));
      expect(m.direction).toBe("inbound");
      expect(canonicalStatus(m.status)).toBe("received");
      expectEventsReadable(m.events);
    });
  });

  describe("domains", () => {
    it("list: ids, names and the records to publish", async () => {
      replay("domains.list");
      const page = await service.domains.list(project);
      expect(page.data.length).toBeGreaterThan(0);
      expect(page.data.map((d) => d.id)).toEqual(json("domains.list").data.map((d: { id: string }) => d.id));
      for (const d of page.data) for (const r of d.records) expect(r.type && r.name && r.value).toBeTruthy();
    });

    it("a domain whose records are all verified reads as verified, in the list and under the verified filter", async () => {
      replay("domains.list.all");
      const all = await listDomains(projectRow, { limit: 100 });
      const added = all.data.find((d) => d.domain === says.newDomain);
      expect(added?.records.every((r) => r.verified)).toBe(true);
      expect(added?.status).toBe("verified");

      replay("domains.list.verified");
      const verified = await listDomains(projectRow, { status: "verified" });
      expect(verified.data.length).toBeGreaterThan(0);
      for (const d of verified.data) expect(d.status, d.domain).toBe("verified");
      expect(mismatches).toEqual([]);
    });

    it("add: pending, with its records; a bad name is refused naming the field", async () => {
      replay("domains.add", "domains.add.invalid");
      const added = await service.domains.add(project, says.newDomain);
      expect(added.id).toBe(json("domains.add").id);
      expect(added.status).toBe("pending");
      expect(added.records.length).toBeGreaterThan(0);
      const err = await failure(service.domains.add(project, "not a hostname"));
      expect([400, 422]).toContain(err.status);
      expect(dotted(err.param)).toBe("domain");
    });

    it("receiving: enabled, with its MX record", async () => {
      replay("domains.receiving");
      const state = await service.domains.receiving(project, idIn("domains.receiving"));
      expect(state.enabled).toBe(true);
      expect(state.records.map((r) => r.type)).toContain("MX");
    });
  });

  describe("contacts", () => {
    it("create, read and resubscribe; a bad address is refused naming the field", async () => {
      replay("contacts.create", "contacts.create.invalid", "contacts.get", "contacts.resubscribe");
      const created = await service.contacts.create(project, body("contacts.create"));
      expect(created).toMatchObject({ email: "recorded.contact@example.org", subscribed: false, firstName: "Ada" });
      const err = await failure(service.contacts.create(project, { email: "not-an-address" }));
      expect([400, 422]).toContain(err.status);
      expect(dotted(err.param)).toBe("email");
      const read = await service.contacts.get(project, created.id);
      expect(read.id).toBe(created.id);
      const again = await service.contacts.resubscribe(project, created.id);
      expect(again).toMatchObject({ id: created.id, subscribed: true, unsubscribedAt: null });
      expect(mismatches).toEqual([]);
    });
  });

  describe("templates", () => {
    it("list: the page as the service gave it, whatever its default size", async () => {
      replay("templates.list");
      const page = await service.templates.list(project);
      expect(page.data.map((t) => t.id)).toEqual(json("templates.list").data.map((t: { id: string }) => t.id));
      expect(page.nextCursor).toBe(json("templates.list").nextCursor);
    });

    it("pages: the cursor of the first page brings the rest", async () => {
      replay("templates.list.page1", "templates.list.page2");
      const first = await service.templates.list(project, { limit: 2 });
      expect(first.data).toHaveLength(2);
      expect(first.nextCursor).toBeTruthy();
      const second = await service.templates.list(project, { limit: 2, cursor: first.nextCursor! });
      expect(second.data.length).toBeGreaterThan(0);
      expect(second.data.map((t) => t.id)).not.toContain(first.data[0]!.id);
      expect(mismatches).toEqual([]);
    });

    it("get: id, name and the parts with their merge tags", async () => {
      replay("templates.get");
      const t = await service.templates.get(project, idIn("templates.get"));
      expect(t.id).toBe(idIn("templates.get"));
      expect(t.name).toBeTruthy();
      expect(t.subject).toContain("{{");
    });

    it("preview: the rendered subject, html and text", async () => {
      replay("templates.preview");
      const rendered = await service.templates.preview(project, body("templates.preview"));
      expect(rendered.subject).toBe("Welcome to Acme, Ada!");
      expect(rendered.html).toContain("Hello Ada");
      expect(rendered.text).toBe("Hello Ada");
    });
  });

  describe("suppressions", () => {
    it("list and add", async () => {
      replay("suppressions.list", "suppressions.add");
      const page = await service.suppressions.list(project, { limit: 100 });
      expect(page.data.length).toBeGreaterThan(0);
      for (const s of page.data) expect(s.email && s.reason && s.createdAt).toBeTruthy();
      const added = await service.suppressions.add(project, { email: "recorded.block@example.org", reason: "manual" });
      expect(added.email).toBe("recorded.block@example.org");
    });
  });

  describe("webhooks", () => {
    it("create with its one-time secret, list without it, delete, and a second delete is not found", async () => {
      replay("webhooks.create", "webhooks.create.invalid", "webhooks.list", "webhooks.remove", "webhooks.remove.missing");
      const created = await service.webhooks.create(project, body("webhooks.create"));
      expect(created.signingSecret).toBeTruthy();
      const err = await failure(service.webhooks.create(project, body("webhooks.create.invalid")));
      expect([400, 422]).toContain(err.status);
      expect(dotted(err.param)).toMatch(/^eventTypes(\.1)?$/);
      const list = await service.webhooks.list(project);
      const listed = list.data.find((w) => w.url.endsWith("/recorded-hook"));
      expect(listed?.id).toBeTruthy();
      expect(listed?.signingSecret).not.toBe(created.signingSecret);
      await expect(service.webhooks.remove(project, listed!.id)).resolves.toBeUndefined();
      expect((await failure(service.webhooks.remove(project, listed!.id))).status).toBe(404);
      expect(mismatches).toEqual([]);
    });
  });

  describe("keys and errors", () => {
    it("an API key: id, name and the one-time secret", async () => {
      replay("api-keys.create");
      const key = await service.apiKeys.create(project, { name: "Recorded key", senderId: project });
      expect(key).toMatchObject({ id: json("api-keys.create").id, name: "Recorded key" });
      expect(key.secret).toBeTruthy();
    });

    it("a refused key: an AppError with a message, whatever the body", async () => {
      replay("auth.refused");
      const err = await failure(service.templates.list(project, { limit: 1 }));
      expect(err.status).toBeGreaterThanOrEqual(400);
      expect(err.message.length).toBeGreaterThan(0);
      expect(err.message).not.toMatch(/^\s*[{<]/);
    });

    it("no project named: a validation error naming the header", async () => {
      replay("project.missing");
      const err = await failure(service.templates.list(project, { limit: 1 }));
      expect([400, 422]).toContain(err.status);
      expect(dotted(err.param).toLowerCase()).toBe("x-service-product");
    });

    it("rate limited: the read waits for Retry-After (seconds or HTTP date) and succeeds", async () => {
      replay("rate-limited", "templates.list");
      const page = await service.templates.list(project, { limit: 1 });
      expect(page.data.length).toBeGreaterThan(0);
      expect(server.requests).toHaveLength(2);
      const limited = exchange("rate-limited");
      const waitMs = limited.retryAfterMs ?? Number(limited.response.headers["retry-after"]) * 1000;
      // HTTP dates have whole seconds: the retry may come up to a second before the exact wait.
      expect(answeredAt[1]! - answeredAt[0]!).toBeGreaterThanOrEqual(waitMs - 1000);
    });
  });
});
