import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { fromRoot } from "../../scripts/lib/paths";
import { eventually, SERVER_URL, startCluster, type Cluster } from "./harness";

/**
 * Two built dashboards on one Postgres behind a load balancer, with the bundled service: what
 * the README's "Several instances" section promises, checked end to end. Runs in the Postgres
 * pass of `npm test` (CI sets TEST_DATABASE_URL); without a Postgres server there is nothing
 * to run it on.
 */
if (!SERVER_URL) {
  console.log("tests/cluster: TEST_DATABASE_URL is not set, so the two-dashboards test does not run here (it needs a Postgres server; `npm test` runs it in its Postgres pass, CI sets the variable).");
}

const ROWS = 1_000;

describe.skipIf(!SERVER_URL)("two dashboards on one Postgres", () => {
  let c: Cluster;
  let cookie: string;
  let project: string;
  let domain: string;
  let seq = 0;
  const unique = () => `${Date.now().toString(36)}${++seq}`;

  const call = async (url: string, path: string, init: { method?: string; body?: unknown; cookie?: string | null; headers?: Record<string, string> } = {}) => {
    const method = init.method ?? "GET";
    const headers: Record<string, string> = { ...init.headers };
    if (init.cookie !== null) headers.cookie = init.cookie ?? cookie;
    // Writes come from the dashboard's own pages, whose origin is the balancer's (PUBLIC_URL).
    if (method !== "GET") headers.origin = c.balancer.url;
    if (init.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${url}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, json: json as Record<string, any>, text }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };

  beforeAll(async () => {
    c = await startCluster({
      dashboardEnv: {
        // One chunk at a time per instance, each claim held a moment before sending, and a short
        // lease: the batch below is shared chunk by chunk and can be interrupted mid-chunk.
        BATCH_WORKERS: "1",
        BATCH_CHUNK_HOLD_MS: "1000",
        BATCH_LEASE_MS: "3000",
      },
    });
    project = c.service.projects[0];
    cookie = await c.signIn();
    const [row] = await c.service.db`select d.domain from domains d join projects p on p.id = d.project_id where p.external_id = ${project} and d.status = 'verified' limit 1`;
    domain = row.domain;
  }, 900_000);
  afterAll(async () => {
    await c?.stop();
  }, 60_000);

  it("started at the same moment on an empty database, both come up healthy and did the start's work once", async () => {
    for (const instance of [c.a, c.b]) expect((await call(instance.url, "/api/health", { cookie: null })).status).toBe(200);
    const migrations = readdirSync(fromRoot("drizzle")).filter((f) => f.endsWith(".sql")).length;
    expect(Number((await c.db`select count(*)::int as n from drizzle.__drizzle_migrations`)[0].n)).toBe(migrations);
    expect(await c.db`select email from users`).toEqual([{ email: c.admin.email }]);
    const registered = await c.db`select project, outcome from audit_log where action = 'project.register' order by project`;
    expect(registered).toEqual(c.service.projects.toSorted().map((p) => ({ project: p, outcome: "success" })));
  });

  it("connects the event stream once: one webhook per project at the service, none created and deleted again", async () => {
    await eventually(async () => Number((await c.db`select count(*)::int as n from event_streams`)[0].n) === c.service.projects.length, "both projects' streams");
    const hooks = await c.service.db`
      select p.external_id as project, count(*)::int as made, count(*) filter (where w.deleted_at is null)::int as live
        from webhooks w join projects p on p.id = w.project_id
       where w.url like ${`${c.balancer.url}/api/ingest/%`}
       group by p.external_id order by p.external_id`;
    expect(hooks).toEqual(c.service.projects.toSorted().map((p) => ({ project: p, made: 1, live: 1 })));
  });

  it("a session made on one works on the other", async () => {
    expect((await call(c.b.url, `/api/p/${project}/batches`, { cookie: null })).status).toBe(401);
    const onA = await call(c.a.url, `/api/p/${project}/batches`);
    const onB = await call(c.b.url, `/api/p/${project}/batches`);
    expect([onA.status, onB.status]).toEqual([200, 200]);
  });

  it("a message sent through one is found by search on the other, and a read cached on one is fresh after an event reaches the other", async () => {
    // Events reach A only; reads below are on B.
    c.balancer.ingestTo(c.a.url);
    // A recipient the sandbox takes through four steps (sent, delivery, open, click; 1.5 s apart), so
    // B's first read, however late a busy machine makes it, still comes before the last of them.
    const to = `clicked+cache-${unique()}@example.com`;
    const sent = await call(c.a.url, `/api/p/${project}/emails`, { method: "POST", body: { from: { email: `app@${domain}` }, to: [{ email: to }], subject: "Across instances", text: "Hello https://example.com/" }, headers: { "Idempotency-Key": `cluster-${unique()}` } });
    expect(sent.status, sent.text).toBe(202);
    const id = sent.json.id as string;
    const found = await call(c.b.url, `/api/p/${project}/messages?q=${encodeURIComponent(to)}`);
    expect(found.json.data.map((m: { id: string }) => m.id)).toEqual([id]);

    const typesOnB = async () => ((await call(c.b.url, `/api/p/${project}/messages/${id}`)).json.events as { type: string }[]).map((e) => e.type);
    const streamTypes = async () => (await c.db`select type from indexed_events where message_id = ${id} and origin = 'stream'`).map((r) => r.type as string);
    // B reads the message (and caches it: the project has an event stream). The sandbox's next
    // step is an event that only A hears; once A has recorded one that B's read did not hold,
    // B's next read must hold it.
    const before = await typesOnB();
    expect(before, "B read the message before its last step").not.toContain("click");
    await eventually(async () => (await streamTypes()).some((t) => !before.includes(t)), `an event after [${before.join(", ")}] to reach A`, 30_000);
    const heard = (await streamTypes()).filter((t) => !before.includes(t));
    expect(await typesOnB()).toEqual(expect.arrayContaining(heard));
    c.balancer.ingestTo(null);
  });

  it("an address erased through one stays out of what either records afterwards: sends, reads of the service, the stream's events", async () => {
    const address = `erase-${unique()}@example.com`;
    const send = (url: string, subject: string) =>
      call(url, `/api/p/${project}/emails`, {
        method: "POST",
        body: { from: { email: `app@${domain}` }, to: [{ email: address }, { email: `bob-${unique()}@example.com` }], subject, text: `Hello ${address}` },
        headers: { "Idempotency-Key": `cluster-${unique()}` },
      });
    const first = await send(c.a.url, `For ${address}`);
    expect(first.status, first.text).toBe(202);
    const erased = await call(c.b.url, `/api/p/${project}/recipients/${encodeURIComponent(address)}/erase`, { method: "POST", body: { confirmEmail: address } });
    expect(erased.status, erased.text).toBe(200);
    // Through A, which did not erase: a new send to the address, and reads of both messages
    // from the service (which keeps the address); the sandbox's events reach either instance.
    const second = await send(c.a.url, `Again ${address}`);
    expect(second.status, second.text).toBe(202);
    const ids = [first.json.id as string, second.json.id as string];
    for (const id of ids) expect((await call(c.a.url, `/api/p/${project}/messages/${id}`)).status).toBe(200);
    await eventually(
      async () => Number((await c.db`select count(*)::int as n from indexed_events where message_id = ${ids[1]!} and origin = 'stream'`)[0].n) > 1,
      "the second message's events to be recorded",
      30_000,
    );
    for (const id of ids) expect((await call(c.b.url, `/api/p/${project}/messages/${id}`)).status).toBe(200);
    // Nothing in the shared database names it, in any table.
    const tables = await c.db`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
    const naming: string[] = [];
    for (const { table_name: t } of tables) {
      const [row] = await c.db`select count(*)::int as n from ${c.db(t as string)} x where strpos(lower(x::text), ${address}) > 0`;
      if (row.n > 0) naming.push(t as string);
    }
    expect(naming).toEqual([]);
    expect((await call(c.a.url, `/api/p/${project}/messages?q=${encodeURIComponent(address)}`)).json.data).toEqual([]);
  }, 120_000);

  it("a batch started on one is sent by both chunk by chunk; killed mid-chunk, the other finishes it in the background with no duplicates", async () => {
    const tag = unique();
    const csv = ["email,name", ...Array.from({ length: ROWS }, (_, i) => `b${i}-${tag}@example.com,Row ${i}`)].join("\n");
    const created = await call(c.a.url, `/api/p/${project}/batches`, {
      method: "POST",
      body: { csv, fileName: "cluster.csv", mapping: { email: "email", name: "name", variables: {} }, content: { from: { email: `app@${domain}` }, subject: "Cluster", text: "Hello" }, confirmCount: ROWS },
    });
    expect(created.status, created.text).toBe(201);
    const job = created.json.id as string;

    // A took the first chunk at once; B's sweeper joins without being asked.
    const [first] = await eventually(async () => {
      const rows = await c.db`select claimed_by from batch_chunks where job_id = ${job} and idx = 0 and claimed_by is not null`;
      return rows.length ? rows : null;
    }, "A to claim the first chunk");
    const instanceA = first.claimed_by as string;
    // Wait until both have sent chunks and A holds a claim (its chunk in hand, not yet sent): then kill it.
    const held = await eventually(async () => {
      const [s] = await c.db`
        select count(distinct claimed_by) filter (where status = 'done')::int as senders,
               count(*) filter (where status = 'done')::int as done,
               min(idx) filter (where status = 'claimed' and claimed_by = ${instanceA}) as held
          from batch_chunks where job_id = ${job}`;
      return s.senders >= 2 && s.done >= 2 && s.held !== null ? Number(s.held) : null;
    }, "both instances to send and A to hold a chunk", 120_000);
    await c.kill(c.a);
    c.balancer.setTargets([c.b.url]);

    // Nobody opens or polls the job from here on: B's sweeper takes A's chunk once its lease ends.
    await eventually(async () => (await c.db`select status from batch_jobs where id = ${job}`)[0].status === "done", "the job to finish on B", 180_000);
    const chunks = await c.db`select idx, claimed_by, attempts from batch_chunks where job_id = ${job} order by idx`;
    expect(new Set(chunks.map((r) => r.claimed_by)).size).toBe(2);
    const taken = chunks.find((r) => Number(r.idx) === held)!;
    expect(taken.claimed_by).not.toBe(instanceA);
    expect(Number(taken.attempts)).toBeGreaterThanOrEqual(2);
    expect(await c.db`select status, count(*)::int as n from batch_rows where job_id = ${job} group by status`).toEqual([{ status: "sent", n: ROWS }]);

    const [held2] = await c.service.db`
      select count(*)::int as messages, count(distinct to_addresses->0->>'email')::int as recipients
        from messages where to_addresses->0->>'email' like ${`%-${tag}@example.com`}`;
    expect(held2).toEqual({ messages: ROWS, recipients: ROWS });
  }, 300_000);

  it("an instance whose start fails exits with the reason instead of answering errors", async () => {
    const url = new URL(c.databaseUrl);
    url.pathname = "/no_such_database_for_cluster_test";
    const broken = await c.startInstance("dashboard-broken", { DATABASE_URL: url.toString() });
    // Asking it something makes sure a lazy start would be triggered too.
    const asking = (async () => {
      while (!broken.child.hasExited()) {
        await fetch(`${broken.url}/api/health`).catch(() => {});
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    const code = await broken.child.exited;
    await asking;
    expect(code).toBe(1);
    expect(broken.child.tail(80)).toMatch(/could not start: .*no_such_database_for_cluster_test/);
  }, 120_000);
});
