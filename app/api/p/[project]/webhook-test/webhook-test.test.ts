import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createTlsServer } from "node:https";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "./route";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { auditLog } from "@/lib/server/db/schema/core";
import { registerProject } from "@/lib/server/projects";
import { apiRequest, json, params, sessionCookie, setTestEnv, type TestServer } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { startDashboardOnFake } from "@/lib/test/dashboard-on-fake";
import { webhookPayload } from "@/contract/wire/webhooks";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * "Test an endpoint": the outbound policy refuses this machine unless allowed, naming the rule;
 * a signed sample verifies with the package the service signs with; only the answer's first
 * kilobyte is read; one test at a time and ten a minute per user; audited; admins only.
 */
const SECRET = `whsec_${Buffer.from("receiver-secret-receiver-secret!").toString("base64")}`;
let close: () => Promise<void>;
let service: TestServer;
let admin: string;
let support: string;
let receiver: Server;
let receiverUrl: string;
let seen: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let answer: (res: import("node:http").ServerResponse) => void = (res) => res.writeHead(200).end("ok");

beforeAll(async () => {
  ({ service, close } = await startDashboardOnFake((_req, res) => json(res, 404, { error: { message: "not found", code: "not_found" } })));
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: "admin@example.com", role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
  support = await sessionCookie((await createUser(createUserRequest.parse({ email: "support@example.com", role: "support", allProjects: true }), SYSTEM_ACTOR)).user.id);
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      answer(res);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await close();
});

let user = 0;
beforeEach(async () => {
  seen = [];
  answer = (res) => res.writeHead(200).end("ok");
  setTestEnv({ SERVICE_URL: service.url, OUTBOUND_ALLOW_HOSTS: "127.0.0.1" });
  // A fresh admin per test: the per-user limits of one test do not reach the next.
  admin = await sessionCookie((await createUser(createUserRequest.parse({ email: `admin${++user}@example.com`, role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id);
});

const test = async (body: unknown, cookie = admin) => {
  const res = await POST(await apiRequest("/api/p/demo/webhook-test", { method: "POST", cookie, body }), params({ project: "demo" }));
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("test an endpoint", () => {
  it("refuses this machine unless OUTBOUND_ALLOW_* allows it, naming the rule, before sending anything", async () => {
    setTestEnv({ SERVICE_URL: service.url, OUTBOUND_ALLOW_HOSTS: undefined, OUTBOUND_ALLOW_PRIVATE: undefined });
    const refused = await test({ url: receiverUrl, secret: SECRET });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: "url", message: expect.stringContaining("loopback address") });
    expect(refused.body.error.message).toContain("OUTBOUND_ALLOW_PRIVATE");
    expect((await test({ url: "http://localhost:1/x" })).body.error.message).toContain("localhost is a loopback address");
    expect(seen).toHaveLength(0);
  });

  it("sends the interface's delivery shape, signed so that the service's own library verifies it", async () => {
    answer = (res) => res.writeHead(201, "Created", { "content-type": "text/plain" }).end("thanks");
    const { status, body } = await test({ url: receiverUrl, secret: SECRET, eventType: "bounce" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 201, statusText: "Created", answer: "thanks", answerCut: false, signed: true, tls: null, error: null });
    expect(seen).toHaveLength(1);
    const { headers, body: sent } = seen[0]!;
    const verified = new Webhook(SECRET).verify(sent, { "webhook-id": String(headers["webhook-id"]), "webhook-timestamp": String(headers["webhook-timestamp"]), "webhook-signature": String(headers["webhook-signature"]) });
    expect(webhookPayload.parse(verified)).toMatchObject({ type: "bounce", data: { project: "demo", direction: "outbound" } });
    expect(headers["webhook-id"]).toBe(body.webhookId);
  });

  it("sends unsigned without a secret", async () => {
    const { body } = await test({ url: receiverUrl });
    expect(body).toMatchObject({ status: 200, signed: false });
    expect(seen[0]!.headers["webhook-signature"]).toBeUndefined();
  });

  it("reads only the answer's first kilobyte, and lets go of the rest unread", async () => {
    let wroteAll = false;
    answer = (res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // 64 MB, written as fast as the socket takes it: more than loopback's buffers hold, so it
      // is all written only if the dashboard reads it all.
      const chunk = "a".repeat(64 * 1024);
      let left = 1024;
      const more = () => {
        while (left > 0 && res.write(chunk)) left--;
        if (left <= 0) res.end(() => (wroteAll = true));
        else res.once("drain", () => (left--, more()));
      };
      res.on("error", () => {});
      more();
    };
    const { body } = await test({ url: receiverUrl });
    expect(body.answer).toBe("a".repeat(1024));
    expect(body.answerCut).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(wroteAll).toBe(false);
  });

  it("answers a dead endpoint with why, not an error of ours", async () => {
    const { status, body } = await test({ url: "http://127.0.0.1:9/nothing" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: null, error: "the connection was refused" });
  });

  /**
   * A second test while the first waits for its answer is refused; the refused try is not a
   * test, so nine more make ten and the next is refused. `between` runs before each request.
   */
  async function oneAtATimeThenTen(between: () => void = () => {}) {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atEndpoint = new Promise<void>((r) => (reached = r));
    answer = (res) => {
      reached();
      void held.then(() => res.writeHead(204).end());
    };
    const first = test({ url: receiverUrl });
    // Its request at the endpoint: the first test holds its claim (taken before it sends).
    await atEndpoint;
    between();
    const second = await test({ url: receiverUrl });
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("webhook_test_running");
    release();
    expect((await first).body.status).toBe(204);
    answer = (res) => res.writeHead(204).end();
    for (let i = 0; i < 9; i++) {
      between();
      expect((await test({ url: receiverUrl })).status).toBe(200);
    }
    between();
    const over = await test({ url: receiverUrl });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: "webhook_tests_limit", message: expect.stringContaining("At most 10 endpoint tests a minute") });
  }

  it("one test at a time and ten a minute per user; audited; admins only", async () => {
    await oneAtATimeThenTen();
    expect((await test({ url: receiverUrl }, support)).status).toBe(403);
    const audit = await (await db()).select().from(auditLog);
    expect(audit.filter((a) => a.action === "webhook.test").length).toBeGreaterThanOrEqual(10);
  });

  it("holds the limits across instances: what one process remembers is not what counts", async () => {
    // Another dashboard on the same database shares nothing of this process's memory: stand for it
    // by forgetting what the limits kept in memory (the old, per-process ones) between requests.
    const otherInstance = () => {
      const g = globalThis as Record<symbol, unknown>;
      for (const kind of ["per-minute", "one-at-a-time"]) delete g[Symbol.for(`mail-dashboard.${kind}.webhook-test`)];
    };
    await oneAtATimeThenTen(otherInstance);
  });

  it.skipIf(!hasOpenssl())("reports a TLS handshake that fails (a self-signed certificate) as the endpoint's problem", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hook-tls-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "1", "-subj", "/CN=127.0.0.1"], { stdio: "ignore" });
    const tls = createTlsServer({ key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/cert.pem`) }, (_req, res) => res.writeHead(200).end("never"));
    await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
    try {
      const { status, body } = await test({ url: `https://127.0.0.1:${(tls.address() as AddressInfo).port}/hooks` });
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: null, tls: null, error: expect.stringMatching(/^TLS failed: .*SELF_SIGNED/) });
    } finally {
      tls.closeAllConnections();
      await new Promise((r) => tls.close(r));
    }
  });

  it("names a bad field", async () => {
    expect((await test({ url: "ftp://example.com/x" })).body.error.param).toBe("url");
    expect((await test({ url: receiverUrl, eventType: "teleported" })).body.error.param).toBe("eventType");
    expect((await test({ url: receiverUrl, secret: "a\u0001b" })).body.error.param).toBe("secret");
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
