import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhookPayload, type WebhookPayload } from "../contract/wire";
import { startReceiver, waitFor, type Received } from "./test/sending-fixtures";
import { startSmtpSink } from "./test/smtp-sink";

/**
 * The service as a real process over real sockets: HTTP in, SMTP out to a real sink,
 * signed webhooks out to a real receiver that fails twice before accepting.
 */
const tmp = mkdtempSync(join(tmpdir(), "svc-e2e-"));
const envFile = join(tmp, ".env.local");
let child: ChildProcess;
let output = "";
let base = "";
let key = "";
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const PROJECT = "acme-production";

/** Webhook deliveries that verified, and any that did not. */
const verified: { delivery: Received; payload: WebhookPayload }[] = [];
const unverified: Received[] = [];
let secret = "";
let flakyId: string | null = null;
let sentId = "";

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return fetch(`${base}${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { Authorization: `Bearer ${key}`, "X-Service-Product": PROJECT, ...(init.body ? { "Content-Type": "application/json" } : {}), ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
}

beforeAll(async () => {
  sink = await startSmtpSink();
  // The receiver verifies every delivery; the first `delivery` event of our message fails twice.
  receiver = await startReceiver((req) => {
    if (!secret) return 503; // not subscribed yet as far as this test knows: the service retries
    let payload: WebhookPayload;
    try {
      payload = webhookPayload.parse(new Webhook(secret).verify(req.body, req.headers));
    } catch {
      unverified.push(req);
      return 400;
    }
    verified.push({ delivery: req, payload });
    if (payload.type === "delivery" && payload.data.messageId === sentId) {
      flakyId ??= req.headers["webhook-id"];
      if (req.headers["webhook-id"] === flakyId && verified.filter((v) => v.delivery.headers["webhook-id"] === flakyId).length <= 2) return 503;
    }
    return 200;
  });

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(join(process.cwd(), "node_modules/.bin/tsx"), ["service/server.ts"], {
    cwd: process.cwd(),
    detached: true, // its own process group, so the whole tree is stopped at the end
    env: {
      ...process.env,
      SERVICE_PORT: String(port),
      SERVICE_HOST: "127.0.0.1",
      SERVICE_DATA_DIR: join(tmp, "data"),
      SERVICE_ENV_FILE: envFile,
      SERVICE_SEED: "auto",
      // The demo month would go to this test's endpoint (the project's first); it tests relaying.
      SERVICE_SEED_HISTORY: "off",
      SERVICE_SMTP_URL: sink.url,
      SERVICE_SANDBOX_STEP_MS: "0",
      SERVICE_WORKER_POLL_MS: "50",
      SERVICE_WEBHOOK_RETRY_SCHEDULE: "200,400,800",
      SERVICE_RATE_LIMIT: "1000",
      // The receiver is on loopback, refused by default: exactly its host and port are allowed.
      SERVICE_WEBHOOK_ALLOW_HOSTS: new URL(receiver.url).host,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));

  await waitFor(async () => output.includes("listening on") || child.exitCode !== null, "the service to start", 60_000);
  if (child.exitCode !== null) throw new Error(`service exited:\n${output}`);
  await waitFor(async () => existsSync(envFile) && /SERVICE_API_KEY=\S+/.test(readFileSync(envFile, "utf8")), "the env file", 10_000);
  const env = readFileSync(envFile, "utf8");
  key = /SERVICE_API_KEY=(\S+)/.exec(env)![1];
  expect(env).toContain(`SERVICE_URL=${base}`);
  expect(env).toMatch(/SERVICE_PROJECTS=acme-production,acme-staging/);
}, 90_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    process.kill(-child.pid, "SIGTERM");
    await waitFor(async () => child.exitCode !== null || child.signalCode !== null, "the service to stop", 10_000).catch(() => process.kill(-child.pid!, "SIGKILL"));
  }
  await receiver?.close();
  await sink?.close();
  rmSync(tmp, { recursive: true, force: true });
});

it("relays real mail, threads a reply, and delivers signed webhooks with retries", async () => {
  const hook = await (await api("/v1/webhooks", { body: { url: receiver.url, eventTypes: ["sent", "delivery", "bounce"] } })).json();
  secret = hook.signingSecret;
  expect(secret).toMatch(/^whsec_/);

  const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const send = await api("/v1/emails", {
    headers: { "Idempotency-Key": "e2e-1" },
    body: {
      from: { email: "hello@acme.test", name: "Acme Support" },
      to: [{ email: "ann@example.com", name: "Ann" }],
      cc: [{ email: "carl@example.com" }],
      bcc: [{ email: "audit@example.com" }],
      replyTo: [{ email: "support@acme.test" }],
      subject: "Your receipt",
      text: "Thanks!",
      html: "<p>Thanks!</p>",
      headers: { "X-Order": "A-1" },
      tags: [{ name: "category", value: "receipt" }],
      attachments: [{ filename: "bytes.bin", content: binary.toString("base64") }, { filename: "note.txt", content: Buffer.from("héllo").toString("base64"), contentType: "text/plain" }],
    },
  });
  expect(send.status).toBe(202);
  sentId = (await send.json()).id;

  const mail = await waitFor(async () => sink.mails.find((m) => m.parsed.headers.get("x-service-message-id") === sentId), "the relayed mail");
  const p = mail.parsed;
  expect(p.subject).toBe("Your receipt");
  expect(p.from?.value[0]).toMatchObject({ name: "Acme Support", address: "hello@acme.test" });
  expect((Array.isArray(p.cc) ? p.cc[0] : p.cc)?.value[0].address).toBe("carl@example.com");
  expect(p.replyTo?.value[0].address).toBe("support@acme.test");
  expect(p.headers.has("bcc")).toBe(false);
  expect(mail.envelope.to).toContain("audit@example.com");
  expect(p.headers.get("x-order")).toBe("A-1");
  expect(p.headers.get("x-tag-category")).toBe("receipt");
  expect(p.attachments.map((a) => a.filename)).toEqual(["bytes.bin", "note.txt"]);
  expect(p.attachments[0].content.equals(binary)).toBe(true);
  expect(p.attachments[1].content.toString("utf8")).toBe("héllo");

  // Attachments are served back byte-exact by their url.
  const list = await (await api(`/v1/emails/${sentId}/attachments`)).json();
  expect(list.data[0].url.startsWith(base)).toBe(true);
  const download = await fetch(list.data[0].url, { headers: { Authorization: `Bearer ${key}` } });
  expect(Buffer.from(await download.arrayBuffer()).equals(binary)).toBe(true);

  await waitFor(async () => (await (await api(`/v1/emails/${sentId}`)).json()).status === "delivered", "delivered");

  const reply = await api(`/v1/emails/${sentId}/reply`, { body: { text: "One more thing" } });
  expect(reply.status).toBe(202);
  const replyId = (await reply.json()).id;
  const replied = await waitFor(async () => sink.mails.find((m) => m.parsed.headers.get("x-service-message-id") === replyId), "the reply");
  expect(replied.parsed.subject).toBe("Re: Your receipt");
  expect(replied.parsed.inReplyTo).toBe(p.messageId);
  expect([replied.parsed.references].flat()).toContain(p.messageId);
  expect((await (await api(`/v1/emails/${replyId}`)).json()).threadId).toBe(sentId);

  // The key of the first send cannot be reused for another body.
  const again = await api("/v1/emails", { headers: { "Idempotency-Key": "e2e-1" }, body: { from: { email: "x@acme.test" }, to: [{ email: "y@example.com" }], subject: "other", text: "x" } });
  expect(again.status).toBe(409);

  // Webhooks: the flaky delivery arrived three times with one id and one body, the third accepted.
  await waitFor(async () => flakyId && verified.filter((v) => v.delivery.headers["webhook-id"] === flakyId).length === 3, "the third attempt", 15_000);
  const attempts = verified.filter((v) => v.delivery.headers["webhook-id"] === flakyId);
  expect(new Set(attempts.map((a) => a.delivery.body)).size).toBe(1);
  expect(attempts[0].payload.data).toMatchObject({ messageId: sentId, project: PROJECT, status: "delivered", direction: "outbound", subject: "Your receipt" });
  expect(attempts[2].delivery.at - attempts[0].delivery.at).toBeGreaterThanOrEqual(550);
  const forOurs = verified.filter((v) => v.payload.data.messageId === sentId).map((v) => v.payload.type);
  expect(forOurs).toContain("sent");
  expect(unverified).toHaveLength(0);
}, 90_000);
