import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { callService, fetchServiceUrl, parseRetryAfter } from "./client";
import { serviceHeaders } from "./headers";
import { resetServiceHealth, serviceHealth, serviceHealthForPage } from "./health";
import { service } from ".";
import { json, setTestEnv, startHttpServer, type TestServer } from "../test-helpers";

/** The next answers of the server, in order; each is a function writing the response. */
type Answer = Parameters<Parameters<typeof startHttpServer>[0]>;
let script: ((...a: Answer) => void)[] = [];
let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const next = script.shift();
    if (next) next(req, res);
    else json(res, 200, { ok: true });
  });
  setTestEnv({ SERVICE_URL: `${server.url}/`, SERVICE_API_KEY: "sk_test_secret", SERVICE_TIMEOUT_MS: "3000" });
});
afterAll(() => server.close());
afterEach(() => {
  script = [];
  server.requests.length = 0;
});

const okSchema = z.object({ ok: z.boolean() });

/** Makes the server's next answer wait until the returned `release` is called, then sends it. */
function holdNextAnswer(status: number, body: unknown): () => void {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  script = [async (_q, res) => {
    await held;
    json(res, status, body);
  }];
  return release;
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error("expected the call to fail");
}

describe("callService", () => {
  it("sends the key, the project header, the query and JSON body", async () => {
    script = [(_q, res) => json(res, 200, { ok: true, extra: "tolerated" })];
    const result = await callService({
      method: "POST",
      path: "/v1/things",
      project: "demo",
      query: { limit: 5, cursor: undefined },
      body: { a: 1 },
      idempotencyKey: "idem-1",
      schema: okSchema,
    });
    expect(result).toEqual({ ok: true });
    const [req] = server.requests;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/v1/things?limit=5");
    expect(req.headers.authorization).toBe("Bearer sk_test_secret");
    expect(req.headers["x-service-product"]).toBe("demo");
    expect(req.headers["idempotency-key"]).toBe("idem-1");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req.body)).toEqual({ a: 1 });
  });

  it("sends no project header without a project", async () => {
    await callService({ method: "GET", path: "/v1/x", schema: okSchema });
    expect(server.requests[0].headers["x-service-product"]).toBeUndefined();
  });

  it("retries a GET after 429, waiting for Retry-After", async () => {
    script = [(_q, res) => json(res, 429, { error: { message: "slow down", code: "rate_limited" } }, { "Retry-After": "1" })];
    const started = Date.now();
    await callService({ method: "GET", path: "/v1/x", schema: okSchema });
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("does not wait for a Retry-After beyond the cap; the error states the wait", async () => {
    script = [(_q, res) => json(res, 429, {}, { "Retry-After": "120" })];
    const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
    expect(err.status).toBe(429);
    expect(err.code).toBe("rate_limited");
    expect(err.message).toContain("120 s");
    expect(server.requests).toHaveLength(1);
  });

  it("retries 5xx with backoff and gives up after three attempts", async () => {
    script = [0, 1, 2].map(() => (_q: Answer[0], res: Answer[1]) => json(res, 503, { message: "internal detail xyz" }));
    const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
    expect(server.requests).toHaveLength(3);
    expect(err.status).toBe(503);
    // The upstream body never reaches the user.
    expect(err.message).not.toContain("xyz");
  });

  it("recovers when a retry succeeds", async () => {
    script = [(_q, res) => json(res, 500, {}), (_q, res) => json(res, 502, {})];
    await expect(callService({ method: "DELETE", path: "/v1/x", schema: okSchema })).resolves.toEqual({ ok: true });
    expect(server.requests).toHaveLength(3);
  });

  it("never retries a POST without an Idempotency-Key", async () => {
    script = [(_q, res) => json(res, 500, {}), (_q, res) => json(res, 429, {}, { "Retry-After": "0" })];
    const err = await failure(callService({ method: "POST", path: "/v1/emails", body: {}, schema: okSchema }));
    expect(err.status).toBe(502);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a POST that carries an Idempotency-Key, with the same key", async () => {
    script = [(_q, res) => json(res, 500, {})];
    await callService({ method: "POST", path: "/v1/emails", body: {}, idempotencyKey: "k1", schema: okSchema });
    expect(server.requests.map((r) => r.headers["idempotency-key"])).toEqual(["k1", "k1"]);
  });

  it("times out with a 504", async () => {
    script = [(_q, res) => setTimeout(() => json(res, 200, { ok: true }), 1500)];
    const err = await failure(callService({ method: "GET", path: "/v1/slow", schema: okSchema, timeoutMs: 300 }));
    expect(err.status).toBe(504);
    expect(err.code).toBe("service_timeout");
    // A timed-out GET is not retried: one request only.
    expect(server.requests).toHaveLength(1);
  });

  it("turns a connection failure into 503", async () => {
    setTestEnv({ SERVICE_URL: "http://127.0.0.1:1", SERVICE_TIMEOUT_MS: "1500" });
    try {
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect(err.status).toBe(503);
      expect(err.code).toBe("service_unavailable");
    } finally {
      setTestEnv({ SERVICE_URL: server.url, SERVICE_API_KEY: "sk_test_secret", SERVICE_TIMEOUT_MS: "3000" });
    }
  });

  describe("parses every error body shape", () => {
    it("{error:{message,code,param}}, with 422 read as a validation failure like 400", async () => {
      script = [(_q, res) => json(res, 422, { error: { message: "to.0.email: bad", code: "validation_error", param: "to.0.email" } })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code, err.message, err.param]).toEqual([400, "validation_error", "to.0.email: bad", "to.0.email"]);
    });
    it("RFC 7807 problem+json with invalid-params names the field", async () => {
      script = [
        (_q, res) => {
          res.writeHead(422, { "Content-Type": "application/problem+json" });
          res.end(JSON.stringify({ type: "https://errors.example/validation", title: "Validation failed", status: 422, "invalid-params": [{ name: "reply_to", reason: "must be an address" }] }));
        },
      ];
      const err = await failure(callService({ method: "POST", path: "/v1/emails", body: {}, schema: okSchema }));
      expect([err.status, err.code, err.message, err.param]).toEqual([400, "invalid_request", "replyTo: must be an address", "replyTo"]);
    });
    it("{errors:[{field,detail}]} and a JSON:API pointer", async () => {
      script = [
        (_q, res) => json(res, 400, { errors: [{ field: "to[0].email", detail: "is not an email address" }] }),
        (_q, res) => json(res, 422, { errors: [{ status: "422", detail: "can't be blank", source: { pointer: "/data/attributes/subject" } }] }),
      ];
      const first = await failure(callService({ method: "POST", path: "/v1/emails", body: {}, schema: okSchema }));
      expect([first.message, first.param]).toEqual(["to.0.email: is not an email address", "to.0.email"]);
      const second = await failure(callService({ method: "POST", path: "/v1/emails", body: {}, schema: okSchema }));
      expect([second.status, second.param]).toEqual([400, "attributes.subject"]);
    });
    it("a bare array of errors", async () => {
      script = [(_q, res) => json(res, 400, [{ message: "domain is already added", code: "duplicate", field: "domain" }])];
      const err = await failure(callService({ method: "POST", path: "/v1/domains", body: {}, schema: okSchema }));
      // The message names its field already, so it is not prefixed again.
      expect([err.code, err.message, err.param]).toEqual(["duplicate", "domain is already added", "domain"]);
    });
    it("{message,code}", async () => {
      script = [(_q, res) => json(res, 404, { message: "Message not found", code: "not_found" })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code, err.message, err.param]).toEqual([404, "not_found", "Message not found", null]);
    });
    it("{error:'text'}", async () => {
      script = [(_q, res) => json(res, 400, { error: "Missing header" })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code, err.message]).toEqual([400, "invalid_request", "Missing header"]);
    });
    it("a one-line text body is the message; a stack trace or an HTML page is not passed on", async () => {
      script = [
        (_q, res) => res.writeHead(409, { "Content-Type": "text/plain" }).end("Domain already exists"),
        (_q, res) => res.writeHead(409, { "Content-Type": "text/plain" }).end("Error: boom\n    at handler (/srv/app.js:3:9)\n    at next"),
        (_q, res) => res.writeHead(404, { "Content-Type": "text/html" }).end("<html><body><h1>404 Not Found</h1><p>nginx</p></body></html>"),
      ];
      const plain = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([plain.status, plain.code, plain.message]).toEqual([409, "conflict", "Domain already exists"]);
      const stack = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([stack.status, stack.code]).toEqual([409, "conflict"]);
      expect(stack.message).not.toContain("handler");
      const html = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([html.status, html.code]).toEqual([404, "not_found"]);
      expect(html.message).not.toContain("<");
    });
    it("no body", async () => {
      script = [(_q, res) => res.writeHead(403).end()];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code]).toEqual([403, "forbidden"]);
    });
    it("401 means the dashboard's key was refused, not the user's session; the service's words are kept", async () => {
      script = [(_q, res) => json(res, 401, { message: "bad key" })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code]).toEqual([502, "service_unauthorized"]);
      expect(err.message).toContain("bad key");
    });
  });

  it("refuses a response of the wrong shape with 502 bad_gateway", async () => {
    script = [(_q, res) => json(res, 200, { ok: "yes" })];
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
    expect([err.status, err.code]).toEqual([502, "bad_gateway"]);
    // The operator's log names the field; the user's message does not carry the body.
    expect(String(log.mock.calls[0][0])).toContain("ok: ");
    expect(err.message).not.toContain("yes");
    log.mockRestore();
  });

  it("does not follow redirects (the key stays with the service)", async () => {
    script = [(_q, res) => res.writeHead(302, { Location: "http://example.com/steal" }).end()];
    const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
    expect(err.status).toBe(502);
    expect(server.requests).toHaveLength(1);
  });

  it("takes any 2xx as success: 200, 201, 202 and 207 answers are read the same", async () => {
    for (const status of [200, 201, 202, 207]) script.push((_q, res) => json(res, status, { id: 42, status: "Queued" }));
    for (let i = 0; i < 4; i++) {
      await expect(service.emails.send("demo", { from: { email: "a@b.io" }, to: [{ email: "c@d.io" }], subject: "s", text: "t" }, `k${i}`)).resolves.toEqual({ id: "42", status: "queued" });
    }
  });

  it("a 2xx without a body succeeds where nothing is needed and is a bad gateway where something is", async () => {
    script = [(_q, res) => res.writeHead(200).end(), (_q, res) => res.writeHead(202).end("OK")];
    await expect(service.webhooks.remove("demo", "wh_1")).resolves.toBeUndefined();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const err = await failure(service.emails.get("demo", "m1"));
    expect([err.status, err.code]).toEqual([502, "bad_gateway"]);
    expect(String(log.mock.calls[0][0])).toContain("not JSON");
    log.mockRestore();
  });

  it("always asks lists for a page size, and reads a missing nextCursor as the last page", async () => {
    script = [(_q, res) => json(res, 200, { data: [{ id: 7, email: "a@b.io", reason: "bounce", createdAt: "2026-01-01T00:00:00Z" }] })];
    const page = await service.suppressions.list("demo");
    expect(server.requests[0].url).toMatch(/[?&]limit=\d+/);
    expect(page).toEqual({ data: [{ email: "a@b.io", reason: "bounce", createdAt: "2026-01-01T00:00:00Z" }], nextCursor: null });
  });

  it("encodes ids of any characters, numbers included", async () => {
    script = [(_q, res) => json(res, 200, { id: 12345, from: "a@b.io", to: ["c@d.io"], subject: null, status: "sent", direction: "outbound", createdAt: "2026-01-01T00:00:00Z", events: [] })];
    const m = await service.emails.get("demo", "msg #1/ü");
    expect(server.requests[0].url).toBe("/v1/emails/msg%20%231%2F%C3%BC");
    expect(m.id).toBe("12345");
  });

  it("accepts an empty 204 with a permissive schema", async () => {
    script = [(_q, res) => res.writeHead(204).end()];
    await expect(service.webhooks.remove("demo", "wh_1")).resolves.toBeUndefined();
    expect(server.requests[0]).toMatchObject({ method: "DELETE", url: "/v1/webhooks/wh_1" });
  });

  it("encodes ids into one path segment and refuses dot segments", async () => {
    script = [(_q, res) => json(res, 404, { message: "nope" })];
    await failure(service.emails.get("demo", "a/b?c"));
    expect(server.requests[0].url).toBe("/v1/emails/a%2Fb%3Fc");
    const err = await failure(service.emails.get("demo", ".."));
    expect(err.status).toBe(404);
    expect(server.requests).toHaveLength(1);
  });
});

describe("fetchServiceUrl", () => {
  it("fetches a URL on the service origin with the key", async () => {
    script = [(_q, res) => res.writeHead(200, { "Content-Type": "application/pdf" }).end("PDF")];
    const res = await fetchServiceUrl(`${server.url}/v1/attachments/a1/content`);
    expect(await res.text()).toBe("PDF");
    expect(server.requests[0].headers.authorization).toBe("Bearer sk_test_secret");
  });

  it("refuses another origin before sending anything", async () => {
    const other = await startHttpServer((_q, res) => json(res, 200, {}));
    try {
      const err = await failure(fetchServiceUrl(`${other.url}/steal`));
      expect(err.code).toBe("untrusted_url");
      expect(other.requests).toHaveLength(0);
      // Same host, other port is another origin too.
      await failure(fetchServiceUrl(server.url.replace(/:\d+$/, ":1") + "/x"));
    } finally {
      await other.close();
    }
  });
});

describe("serviceHealth", () => {
  it("reports up with latency, caches, and reports down when unreachable", async () => {
    resetServiceHealth();
    script = [(_q, res) => json(res, 400, { message: "project header missing" })];
    const first = await serviceHealth();
    expect(first.state).toBe("up");
    expect(typeof first.latencyMs).toBe("number");
    await serviceHealth();
    expect(server.requests).toHaveLength(1);
    // The probe carries the key as every other request does (./headers.ts).
    expect(server.requests[0].headers).toMatchObject({ authorization: "Bearer sk_test_secret", accept: "application/json" });

    resetServiceHealth();
    setTestEnv({ SERVICE_URL: "http://127.0.0.1:1" });
    try {
      expect(await serviceHealth()).toMatchObject({ state: "down", latencyMs: null, problem: "unreachable" });
    } finally {
      setTestEnv({ SERVICE_URL: server.url, SERVICE_API_KEY: "sk_test_secret", SERVICE_TIMEOUT_MS: "3000" });
      resetServiceHealth();
    }
  });
});

describe("serviceHealth once its answer is old", () => {
  /** Whether `p` settles within `ms` (real time; only Date is faked below). */
  const settlesWithin = (p: Promise<unknown>, ms: number) => Promise.race([p.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

  it("gives a prompt probe's new answer, and the last answer at once while one probe hangs, however old", async () => {
    resetServiceHealth();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect((await serviceHealth()).state).toBe("up");
      expect(server.requests).toHaveLength(1);

      // 11 s later the answer is stale and the service answers at once that the key is refused:
      // the caller gets that answer, not the old one.
      vi.setSystemTime(Date.now() + 11_000);
      script = [(_q, res) => json(res, 401, { message: "key revoked" })];
      expect((await serviceHealth()).state).toBe("down");
      expect(server.requests).toHaveLength(2);

      // Over a minute later the service hangs: three callers get the last answer without
      // waiting for it, and one probe is made for them all.
      vi.setSystemTime(Date.now() + 61_000);
      const release = holdNextAnswer(200, { ok: true });
      const during = [serviceHealth(), serviceHealth(), serviceHealth()];
      expect(await settlesWithin(Promise.all(during), 1_000)).toBe(true);
      expect((await Promise.all(during)).map((h) => h.state)).toEqual(["down", "down", "down"]);
      await vi.waitFor(() => expect(server.requests).toHaveLength(3));
      release();
      // The refresh lands: the next caller gets the new answer without another probe.
      await vi.waitFor(async () => expect((await serviceHealth()).state).toBe("up"));
      expect(server.requests).toHaveLength(3);
    } finally {
      vi.useRealTimers();
      resetServiceHealth();
    }
  });

  it("makes the first caller wait for the probe when nothing is known", async () => {
    resetServiceHealth();
    const answer = holdNextAnswer(200, { ok: true });
    const waiting = serviceHealth();
    expect(await settlesWithin(waiting, 300)).toBe(false);
    answer();
    expect((await waiting).state).toBe("up");
    resetServiceHealth();
  });
});

describe("serviceHealthForPage", () => {
  it("hands a page the probe when it answers in time, and the last answer known when the service hangs", async () => {
    resetServiceHealth();
    expect(await serviceHealthForPage()).toMatchObject({ value: { state: "up" }, at: expect.any(Number) });
    const known = await serviceHealthForPage();
    expect(server.requests).toHaveLength(1); // the cached probe, not a second one

    // The cache runs out and the service stops answering: the page does not wait for it.
    resetServiceHealth();
    const release = holdNextAnswer(200, { ok: true });
    expect(await serviceHealthForPage(50)).toBeNull(); // nothing known since the reset
    release();
    const answered = await serviceHealthForPage();
    expect(answered?.value.state).toBe("up");
    // …and once an answer is known but too old to give without asking (over a minute), a
    // hanging probe gives the page that answer, with the time it was taken.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      const answer = holdNextAnswer(401, { message: "key revoked" });
      const requestsBefore = server.requests.length;
      const last = await serviceHealthForPage();
      expect(last).toEqual(answered);
      await vi.waitFor(() => expect(server.requests).toHaveLength(requestsBefore + 1)); // the probe was made, and not waited for
      answer();
      await vi.waitFor(async () => expect((await serviceHealthForPage())?.value.state).toBe("down"));
    } finally {
      vi.useRealTimers();
    }
    expect(known?.value.state).toBe("up");
    resetServiceHealth();
  });

  it("forgets a probe that was under way when the cache was reset", async () => {
    resetServiceHealth();
    const release = holdNextAnswer(401, { message: "old answer" });
    const before = serviceHealth();
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    resetServiceHealth();
    release();
    expect((await before).state).toBe("down"); // its caller still gets it…
    expect((await serviceHealth()).state).toBe("up"); // …the cache does not: a new probe is made
    expect(server.requests).toHaveLength(2);
    resetServiceHealth();
  });
});

describe("serviceHeaders", () => {
  it("puts the key, the project, the Idempotency-Key and the body's type on a request, and nothing unasked", () => {
    expect(serviceHeaders({ key: "k", project: "acme", idempotencyKey: "i1", jsonBody: true })).toEqual({
      Authorization: "Bearer k",
      Accept: "application/json",
      "X-Service-Product": "acme",
      "Idempotency-Key": "i1",
      "Content-Type": "application/json",
    });
    expect(serviceHeaders({ key: "k", project: null, acceptJson: false })).toEqual({ Authorization: "Bearer k" });
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("2")).toBe(2000);
    expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
  });
});
