import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { run, serviceKey } from "../support/run";
import { call, signInOver, type Answer } from "./abuse-http";
import { ownDashboard } from "./restart";

/**
 * The dashboard the abuse suite attacks: the built app (.next-e2e) on data of its own, in front
 * of the running local service, so an attack that kills or freezes it (as findings 1 and 2 of
 * issue 25 did) takes nothing else of the run with it, and the test can tell whether its
 * process survived.
 *
 * Its service connection runs through a small forwarding proxy of the test, which reads the
 * stream's signing secret where the service hands it out (the answer to POST /v1/webhooks):
 * that is how a test may sign deliveries of its own (a list of 5,000 events, a `\u0000`), as
 * the service would. The proxy also answers, for ids the test invents (`invented`), the read
 * of a message the service does not have, so an invented message can stay in the index long
 * enough to raise an alert. Everything else goes to the service as it was sent.
 */
export type InventedMessage = { id: string; to: string; subject: string; status: string; events: string[] };

export type AbuseTarget = {
  baseURL: string;
  project: string;
  /** The stream's signing secret of `project`, as the service gave it to the dashboard. */
  secret: string;
  /** Messages the proxy answers for, by id. */
  invented: Map<string, InventedMessage>;
  /** The admin's session (the dashboard's first admin, signed in over HTTP). */
  admin: Session;
  /** Is the process that started still the one running? */
  alive(): { alive: boolean; pid: number | null; tail: string };
  dispose(): Promise<void>;
};

export type Session = {
  cookie: string;
  /** A same-origin call with this session, JSON in and out. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>, timeoutMs?: number): Promise<Answer>;
};

export function sessionOf(baseURL: string, cookie: string): Session {
  return {
    cookie,
    api: (method, path, body, headers = {}, timeoutMs = 30_000) =>
      call(baseURL, method, path, {
        cookie,
        timeoutMs,
        headers: { Origin: new URL(baseURL).origin, ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
  };
}

type Proxy = { url: string; secrets: Map<string, string>; webhooks: { id: string; project: string }[]; invented: Map<string, InventedMessage>; close(): Promise<void> };

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "accept-encoding", "keep-alive"]);

async function startProxy(): Promise<Proxy> {
  const secrets = new Map<string, string>();
  const webhooks: { id: string; project: string }[] = [];
  const invented = new Map<string, InventedMessage>();
  const server: Server = createServer((req, res) => {
    void forward(req)
      .then(({ status, headers, body }) => {
        res.writeHead(status, headers);
        res.end(body);
      })
      .catch((e: Error) => {
        res.writeHead(502, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ message: `test proxy: ${e.message}` }));
      });
  });
  async function forward(req: IncomingMessage): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const project = String(req.headers["x-service-product"] ?? "");
    const read = req.method === "GET" ? /^\/v1\/emails\/([^/?]+)$/.exec(req.url ?? "") : null;
    const mine = read ? invented.get(decodeURIComponent(read[1]!)) : undefined;
    if (mine) {
      const at = new Date(Date.now() - 1_000).toISOString();
      const body = { object: "email", id: mine.id, from: "Abuse suite <abuse@acme.test>", to: [mine.to], subject: mine.subject, status: mine.status, direction: "outbound", createdAt: at, events: mine.events.map((type) => ({ type, createdAt: at })) };
      return { status: 200, headers: { "Content-Type": "application/json" }, body: Buffer.from(JSON.stringify(body)) };
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === "string")) as Record<string, string>;
    const answer = await fetch(new URL(req.url ?? "/", run.serviceURL), { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    // Links in the answer (an attachment's download URL) point at the proxy, as they would at the service.
    const raw = Buffer.from(await answer.arrayBuffer());
    const body = (answer.headers.get("content-type") ?? "").includes("json") ? Buffer.from(raw.toString("utf8").replaceAll(run.serviceURL, self())) : raw;
    if (req.method === "POST" && req.url === "/v1/webhooks" && answer.ok) {
      const created = JSON.parse(body.toString()) as { id: string; signingSecret?: string };
      if (created.signingSecret) secrets.set(project, created.signingSecret);
      webhooks.push({ id: created.id, project });
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== "content-encoding") out[name] = value;
    });
    return { status: answer.status, headers: out, body };
  }
  const self = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: self(),
    secrets,
    webhooks,
    invented,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Starts the target with `env` on top of the suite's settings (alerts checked every second
 * from the first message, re-reads soon after a delivery and soon again after a failure),
 * waits until its stream on the first demo project is connected, and signs its admin in.
 */
export async function startAbuseTarget(env: Record<string, string> = {}): Promise<AbuseTarget> {
  const project = run.projects[0]!;
  const proxy = await startProxy();
  const dashboard = await ownDashboard({
    SERVICE_URL: proxy.url,
    ALERT_MIN_VOLUME: "1",
    ALERT_CHECK_INTERVAL_S: "1",
    REREAD_COALESCE_MS: "100",
    // A message the service disowns is removed after four refused reads: 1.4 s of retries, not 14.
    REREAD_RETRY_BASE_MS: "100",
    ...env,
  });
  const dispose = async () => {
    await dashboard.dispose();
    // The service would otherwise go on delivering both projects' events to a closed port.
    for (const hook of proxy.webhooks) {
      await fetch(`${run.serviceURL}/v1/webhooks/${encodeURIComponent(hook.id)}`, { method: "DELETE", headers: { Authorization: `Bearer ${serviceKey()}`, "X-Service-Product": hook.project } }).catch(() => {});
    }
    await proxy.close();
  };
  try {
    await dashboard.start();
    const until = Date.now() + 30_000;
    while (!proxy.secrets.has(project)) {
      if (Date.now() > until) throw new Error(`the dashboard did not connect its event stream for ${project} within 30 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const signedIn = await signInOver(dashboard.baseURL, dashboard.admin);
    if (!signedIn.ok) throw new Error(`the admin could not sign in: ${signedIn.code}`);
    const pid = dashboard.current()?.process.pid ?? null;
    return {
      baseURL: dashboard.baseURL,
      project,
      secret: proxy.secrets.get(project)!,
      invented: proxy.invented,
      admin: sessionOf(dashboard.baseURL, signedIn.cookie),
      alive() {
        const child = dashboard.current();
        const same = child !== null && child.process.pid === pid && !child.hasExited();
        return { alive: same, pid, tail: child?.tail(30) ?? "" };
      },
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** A user of the target with `role` and every project, created by its admin; and signed in, when asked. */
export async function targetUser(target: AbuseTarget, role: "admin" | "support" | "marketer", label: string): Promise<{ email: string; password: string }> {
  const user = { email: `${label}-${randomBytes(4).toString("hex")}@e2e.test`, password: `pw-${randomBytes(12).toString("base64url")}` };
  const created = await target.admin.api("POST", "/api/admin/users", { ...user, name: `Abuse ${label}`, role, allProjects: true });
  if (created.status !== 201) throw new Error(`creating ${user.email}: HTTP ${created.status} ${created.text}`);
  return user;
}

export async function signedInUser(target: AbuseTarget, role: "admin" | "support" | "marketer", label: string): Promise<Session> {
  const user = await targetUser(target, role, label);
  const signedIn = await signInOver(target.baseURL, user);
  if (!signedIn.ok) throw new Error(`${user.email} could not sign in: ${signedIn.code}`);
  return sessionOf(target.baseURL, signedIn.cookie);
}
