import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { run, serviceKey } from "../support/run";

/** Direct calls to the local service for the marketer specs (what the service itself holds). */
export const project = run.projects[0]!;
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const headers = () => ({ Authorization: `Bearer ${serviceKey()}`, "X-Service-Product": project, "Content-Type": "application/json" });

export async function service<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await fetch(`${run.serviceURL}${path}`, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
}

/** Polls a message at the service until its status is one of `statuses`. */
export async function waitForStatus(id: string, statuses: string[], timeoutMs = 90_000): Promise<{ status: string; [k: string]: unknown }> {
  const until = Date.now() + timeoutMs;
  let last: { status: string } | null = null;
  while (Date.now() < until) {
    const { json } = await service<{ status: string }>("GET", `/v1/emails/${encodeURIComponent(id)}`);
    last = json;
    if (json && statuses.includes(json.status)) return json as { status: string };
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`message ${id} did not reach ${statuses.join("/")} (last: ${last?.status})`);
}

/** The bytes of a message's attachments, downloaded from the service. */
export async function attachmentBytes(id: string): Promise<{ filename: string; bytes: Buffer }[]> {
  const { json } = await service<{ data: { filename: string; url: string }[] }>("GET", `/v1/emails/${encodeURIComponent(id)}/attachments`);
  return Promise.all(
    json.data.map(async (a) => {
      const r = await fetch(new URL(a.url, run.serviceURL), { headers: { Authorization: `Bearer ${serviceKey()}` } });
      return { filename: a.filename, bytes: Buffer.from(await r.arrayBuffer()) };
    }),
  );
}

/**
 * Every message the service accepts, seen through a webhook of our own: the interface
 * cannot list messages, so this is how a test counts what the service holds.
 */
export async function acceptedMessages(): Promise<{ recipients: Map<string, Set<string>>; close: () => Promise<void> }> {
  const recipients = new Map<string, Set<string>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { messageId: string; to: string[] } };
        if (body.type === "accepted" || body.type === "queued") {
          for (const to of body.data.to) {
            const ids = recipients.get(to) ?? new Set<string>();
            ids.add(body.data.messageId);
            recipients.set(to, ids);
          }
        }
      } catch {
        // Not an event: ignored.
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const created = await service<{ id: string }>("POST", "/v1/webhooks", { url, eventTypes: ["accepted"] });
  if (created.status !== 201) throw new Error(`webhook: HTTP ${created.status} ${JSON.stringify(created.json)}`);
  return {
    recipients,
    close: async () => {
      await service("DELETE", `/v1/webhooks/${created.json.id}`);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * Sends one message of our own straight to the service and waits for its accepted event:
 * every message accepted before it has had its event delivered by then, so a test can assert
 * that no further (duplicate) one came, without sleeping.
 */
export async function controlEvent(seen: { recipients: Map<string, Set<string>> }, tag: string): Promise<void> {
  const to = `control+${tag}-${unique()}@example.com`;
  const sent = await service("POST", "/v1/emails", { from: { email: `hello@${project === "acme-staging" ? "staging.acme.test" : "acme.test"}` }, to: [{ email: to }], subject: "control", text: "control" });
  if (sent.status !== 202) throw new Error(`control message: HTTP ${sent.status} ${JSON.stringify(sent.json)}`);
  await eventually(() => (seen.recipients.get(to)?.size ?? 0) >= 1, 60_000, "the control message's accepted event");
}

/** Waits until `check` holds, polling. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30_000, what = "condition"): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
