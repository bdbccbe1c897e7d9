import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { callService, fetchServiceUrl, parseRetryAfter } from "./service-client";
import { resetServiceHealth, serviceHealth } from "./service/health";
import { service } from "./service";
import { json, setTestEnv, startHttpServer, type TestServer } from "./test-helpers";

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
    const started = Date.now();
    const err = await failure(callService({ method: "GET", path: "/v1/slow", schema: okSchema, timeoutMs: 300 }));
    expect(err.status).toBe(504);
    expect(err.code).toBe("service_timeout");
    expect(Date.now() - started).toBeLessThan(1200);
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
    it("{error:{message,code,param}}", async () => {
      script = [(_q, res) => json(res, 422, { error: { message: "to.0.email: bad", code: "validation_error", param: "to.0.email" } })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code, err.message, err.param]).toEqual([422, "validation_error", "to.0.email: bad", "to.0.email"]);
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
    it("plain text, not passed on verbatim", async () => {
      script = [(_q, res) => res.writeHead(409, { "Content-Type": "text/plain" }).end("stack at line 3")];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code]).toEqual([409, "conflict"]);
      expect(err.message).not.toContain("stack");
    });
    it("no body", async () => {
      script = [(_q, res) => res.writeHead(403).end()];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code]).toEqual([403, "forbidden"]);
    });
    it("401 means the dashboard's key was refused, not the user's session", async () => {
      script = [(_q, res) => json(res, 401, { message: "bad key" })];
      const err = await failure(callService({ method: "GET", path: "/v1/x", schema: okSchema }));
      expect([err.status, err.code]).toEqual([502, "service_unauthorized"]);
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

    resetServiceHealth();
    setTestEnv({ SERVICE_URL: "http://127.0.0.1:1" });
    try {
      expect(await serviceHealth()).toEqual({ state: "down", latencyMs: null });
    } finally {
      setTestEnv({ SERVICE_URL: server.url, SERVICE_API_KEY: "sk_test_secret", SERVICE_TIMEOUT_MS: "3000" });
      resetServiceHealth();
    }
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
