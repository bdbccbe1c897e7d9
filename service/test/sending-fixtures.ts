import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { domains, messages, templates } from "../db/schema";
import { newId } from "../lib/ids";
import { createTestService } from "./harness";

/** An email the alpha project may send once its domain is verified (`createSendingService`). */
export const sendableEmail = { from: { email: "hello@alpha.test", name: "Alpha Team" }, to: [{ email: "delivered@example.com" }], subject: "Hi", text: "Hello" };

/** A test service whose projects may send: alpha from alpha.test, beta from beta.test. */
export async function createSendingService(opts: Parameters<typeof createTestService>[0] = {}) {
  const svc = await createTestService(opts);
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
  await addVerifiedDomain(svc.db, svc.beta.id, "beta.test");
  return svc;
}

/** A verified sending domain (and optionally receiving), without waiting for DNS checks. */
export async function addVerifiedDomain(db: Db, projectId: string, domain: string, opts: { receiving?: boolean; status?: string } = {}) {
  await db.insert(domains).values({
    id: newId("dom"), projectId, domain, status: opts.status ?? "verified", records: [], receivingEnabled: opts.receiving ?? false, receivingRecords: [],
  });
}

export async function addTemplate(db: Db, projectId: string, t: { slug: string; subject: string; html?: string; text?: string }) {
  const id = newId("tmpl");
  await db.insert(templates).values({ id, projectId, slug: t.slug, name: t.slug, subject: t.subject, html: t.html ?? null, text: t.text ?? null });
  return id;
}

export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function statusOf(db: Db, id: string) {
  const [row] = await db.select({ status: messages.status }).from(messages).where(eq(messages.id, id));
  return row?.status;
}

export type Received = { headers: Record<string, string>; body: string; at: number };

/**
 * A webhook receiver on a loopback port: records every request and answers with what
 * `respond` says (200 unless told otherwise).
 */
export async function startReceiver(respond: (req: Received, index: number) => number = () => 200) {
  const received: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(entry);
      res.statusCode = respond(entry, received.length - 1);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
