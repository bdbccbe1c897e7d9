import { KEPT_HEADERS, type Implementation, type RecordedExchange } from "./format";
import { callInit, readAnswer, type Answer } from "./call";

/** Where an implementation runs and what its sandbox does with which address. */
export interface Subject {
  implementation: Implementation;
  url: string;
  key: string;
  project: string;
  address: { delivered: string; bounced: string; unfamiliarFinal: string };
  finalStatuses: string[];
  newDomain: string;
}

type Call = { method: string; path: string; body?: unknown; headers?: Record<string, string>; key?: string; project?: string | null };

/**
 * Calls every operation of the interface (and the error answers worth reading) on one
 * implementation, the way the dashboard calls them: account-wide key, project header on
 * every call. Returns the exchanges by name.
 */
export async function runScenario(s: Subject, log: (line: string) => void = () => {}): Promise<RecordedExchange[]> {
  const out: RecordedExchange[] = [];

  async function call(c: Call): Promise<Answer> {
    const init = callInit(c.method, { ...c, key: c.key ?? s.key, project: c.project === undefined ? s.project : c.project, headers: { Accept: "application/json", ...c.headers } });
    return readAnswer(await fetch(`${s.url}${c.path}`, { ...init, redirect: "manual" }));
  }

  async function record(name: string, c: Call) {
    const answer = await call(c);
    const kept: Record<string, string> = {};
    for (const h of KEPT_HEADERS) {
      const v = answer.headers.get(h);
      if (v !== null) kept[h] = v;
    }
    const exchange: RecordedExchange = {
      name,
      implementation: s.implementation,
      request: { method: c.method, path: c.path, headers: { ...(c.headers ?? {}), ...(c.project === null ? {} : { "X-Service-Product": c.project ?? s.project }) }, ...(c.body === undefined ? {} : { body: c.body }) },
      response: { status: answer.status, headers: kept, body: answer.text },
    };
    const retryAfter = kept["retry-after"];
    if (retryAfter && !/^\d+$/.test(retryAfter.trim())) {
      exchange.retryAfterMs = Math.max(0, Date.parse(retryAfter) - Date.parse(answer.headers.get("date") ?? new Date().toUTCString()));
    }
    out.push(exchange);
    log(`${s.implementation}: ${name} → ${answer.status}`);
    return answer;
  }

  async function untilFinal(id: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { json } = await call({ method: "GET", path: `/v1/emails/${encodeURIComponent(id)}` });
      if (json && s.finalStatuses.includes(json.status)) return;
      if (Date.now() > deadline) throw new Error(`${s.implementation}: message ${id} did not reach a final status (last ${JSON.stringify(json)})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const verified = await record("domains.list.verified", { method: "GET", path: "/v1/domains?status=verified" });
  const sender = `recorder@${verified.json.data[0].domain}`;
  const message = (to: string, extra: Record<string, unknown> = {}) => ({ from: { email: sender, name: "Recorder" }, to: [{ email: to }], subject: "Recorded message", text: "Hello.", ...extra });

  // Sending and reading messages.
  const sent = await record("emails.send", { method: "POST", path: "/v1/emails", body: message(s.address.delivered), headers: { "Idempotency-Key": `recorded-${s.implementation}-1` } });
  const id = sent.json.id as string;
  await record("emails.get.queued", { method: "GET", path: `/v1/emails/${encodeURIComponent(id)}` });
  await record("emails.send.replayed", { method: "POST", path: "/v1/emails", body: message(s.address.delivered), headers: { "Idempotency-Key": `recorded-${s.implementation}-1` } });
  await record("emails.send.invalid", { method: "POST", path: "/v1/emails", body: message("not-an-address"), headers: { "Idempotency-Key": `recorded-${s.implementation}-2` } });
  await record("emails.batch", { method: "POST", path: "/v1/emails/batch", body: { emails: [message(s.address.delivered), message("not-an-address")] } });
  const bounced = (await call({ method: "POST", path: "/v1/emails", body: message(s.address.bounced) })).json.id as string;
  const unfamiliar = (await call({ method: "POST", path: "/v1/emails", body: message(s.address.unfamiliarFinal) })).json.id as string;
  const withFile = (await call({
    method: "POST",
    path: "/v1/emails",
    body: message(s.address.delivered, { attachments: [{ filename: "notes.txt", content: Buffer.from("recorded attachment").toString("base64"), contentType: "text/plain" }] }),
  })).json.id as string;
  for (const m of [id, bounced, unfamiliar]) await untilFinal(m);
  await record("emails.get.delivered", { method: "GET", path: `/v1/emails/${encodeURIComponent(id)}` });
  await record("emails.get.bounced", { method: "GET", path: `/v1/emails/${encodeURIComponent(bounced)}` });
  await record("emails.get.unfamiliar", { method: "GET", path: `/v1/emails/${encodeURIComponent(unfamiliar)}` });
  await record("emails.get.not-found", { method: "GET", path: `/v1/emails/${encodeURIComponent(`${id.slice(0, -3)}zzz`)}` });
  await record("emails.attachments", { method: "GET", path: `/v1/emails/${encodeURIComponent(withFile)}/attachments` });
  await record("emails.reply", { method: "POST", path: `/v1/emails/${encodeURIComponent(id)}/reply`, body: { text: "A follow-up." }, headers: { "Idempotency-Key": `recorded-${s.implementation}-3` } });

  // Inbound.
  const simulated = await record("inbound.simulate", { method: "POST", path: "/v1/inbound/simulate", body: { to: sender.replace("recorder@", "help@"), from: "customer@example.org", subject: "Recorded inbound", text: "Where is my order?" } });
  const inboundId = (simulated.json.id ?? simulated.json.inbound?.messageId) as string;
  await record("emails.get.inbound", { method: "GET", path: `/v1/emails/${encodeURIComponent(inboundId)}` });

  // Domains.
  await record("domains.list", { method: "GET", path: "/v1/domains" });
  const added = await record("domains.add", { method: "POST", path: "/v1/domains", body: { domain: s.newDomain } });
  await record("domains.add.invalid", { method: "POST", path: "/v1/domains", body: { domain: "not a hostname" } });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { json } = await call({ method: "GET", path: "/v1/domains?status=verified&limit=100" });
    if (json.data.some((d: { domain: string }) => d.domain === s.newDomain)) break;
    if (Date.now() > deadline) throw new Error(`${s.implementation}: ${s.newDomain} did not verify`);
    await new Promise((r) => setTimeout(r, 200));
  }
  await record("domains.list.all", { method: "GET", path: "/v1/domains?limit=100" });
  await record("domains.receiving", { method: "GET", path: `/v1/domains/${encodeURIComponent(added.json.id)}/receiving` });

  // Contacts.
  const contact = await record("contacts.create", { method: "POST", path: "/v1/contacts", body: { email: "recorded.contact@example.org", firstName: "Ada", subscribed: false, metadata: { plan: "pro" } } });
  await record("contacts.create.invalid", { method: "POST", path: "/v1/contacts", body: { email: "not-an-address" } });
  await record("contacts.get", { method: "GET", path: `/v1/contacts/${encodeURIComponent(contact.json.id)}` });
  await record("contacts.resubscribe", { method: "POST", path: `/v1/contacts/${encodeURIComponent(contact.json.id)}/resubscribe` });

  // Templates.
  await record("templates.list", { method: "GET", path: "/v1/templates" });
  const first = await record("templates.list.page1", { method: "GET", path: "/v1/templates?limit=2" });
  await record("templates.list.page2", { method: "GET", path: `/v1/templates?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}` });
  await record("templates.get", { method: "GET", path: `/v1/templates/${encodeURIComponent(first.json.data[0].id)}` });
  await record("templates.preview", { method: "POST", path: "/v1/templates/preview", body: { subject: "Welcome to {{company}}, {{firstName}}!", html: "<p>Hello {{firstName}}</p>", text: "Hello {{firstName}}", data: { company: "Acme", firstName: "Ada" } } });

  // Suppressions.
  await record("suppressions.list", { method: "GET", path: "/v1/suppressions?limit=100" });
  await record("suppressions.add", { method: "POST", path: "/v1/suppressions", body: { email: "recorded.block@example.org", reason: "manual" } });

  // Webhooks.
  await record("webhooks.create", { method: "POST", path: "/v1/webhooks", body: { url: "http://127.0.0.1:9/recorded-hook", eventTypes: ["delivery", "bounce", "inbound_received"] } });
  await record("webhooks.create.invalid", { method: "POST", path: "/v1/webhooks", body: { url: "http://127.0.0.1:9/x", eventTypes: ["delivery", "teleported"] } });
  const hooks = await record("webhooks.list", { method: "GET", path: "/v1/webhooks" });
  const hookId = hooks.json.data.find((w: { url: string }) => w.url.endsWith("/recorded-hook")).id as string;
  await record("webhooks.remove", { method: "DELETE", path: `/v1/webhooks/${encodeURIComponent(hookId)}` });
  await record("webhooks.remove.missing", { method: "DELETE", path: `/v1/webhooks/${encodeURIComponent(hookId)}` });

  // API keys and authentication.
  await record("api-keys.create", { method: "POST", path: "/v1/api-keys", body: { name: "Recorded key", senderId: s.project } });
  await record("auth.refused", { method: "GET", path: "/v1/templates?limit=1", key: "not-a-key-of-this-service" });
  await record("project.missing", { method: "GET", path: "/v1/templates?limit=1", project: null });
  return out;
}

/** A 429: the implementation must be started with a rate limit this trips at once. */
export async function recordRateLimit(s: Subject): Promise<RecordedExchange> {
  for (let i = 0; i < 20; i++) {
    const exchanges = await runLimited(s);
    if (exchanges) return exchanges;
  }
  throw new Error(`${s.implementation}: no 429 in 20 tries`);
}

async function runLimited(s: Subject): Promise<RecordedExchange | null> {
  const headers = { Authorization: `Bearer ${s.key}`, "X-Service-Product": s.project, Accept: "application/json" };
  const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${s.url}/v1/templates?limit=1`, { headers })));
  const limited = answers.find((a) => a.status === 429);
  for (const a of answers) if (a !== limited) await a.text();
  if (!limited) return null;
  const kept: Record<string, string> = {};
  for (const h of KEPT_HEADERS) {
    const v = limited.headers.get(h);
    if (v !== null) kept[h] = v;
  }
  const exchange: RecordedExchange = {
    name: "rate-limited",
    implementation: s.implementation,
    request: { method: "GET", path: "/v1/templates?limit=1", headers: { "X-Service-Product": s.project } },
    response: { status: 429, headers: kept, body: await limited.text() },
  };
  if (kept["retry-after"] && !/^\d+$/.test(kept["retry-after"].trim())) {
    exchange.retryAfterMs = Math.max(0, Date.parse(kept["retry-after"]) - Date.parse(limited.headers.get("date") ?? new Date().toUTCString()));
  }
  return exchange;
}
