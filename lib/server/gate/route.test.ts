import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { errorResponse } from "../http/error-answer";
import { parseBody, parseQuery, route } from "./route";
import { apiRequest, params, setTestEnv } from "../test-helpers";

setTestEnv();

describe("route", () => {
  it("turns plain objects into JSON and null into 204, always no-store", async () => {
    const json = await route(null, async () => ({ a: 1 }))(await apiRequest("/api/x"), params({}));
    expect(await json.json()).toEqual({ a: 1 });
    expect(json.headers.get("cache-control")).toBe("no-store, no-transform");
    const empty = await route(null, async () => null)(await apiRequest("/api/x", { method: "DELETE" }), params({}));
    expect(empty.status).toBe(204);
    const passed = await route(null, async () => new Response("file", { headers: { "Cache-Control": "public, max-age=99" } }))(
      await apiRequest("/api/x"),
      params({}),
    );
    expect(passed.headers.get("cache-control")).toBe("no-store");
  });

  it("keeps small JSON answers out of gzip (no-transform) and lets larger ones be compressed", async () => {
    const small = await route(null, async () => ({ name: "Zoë ✓" }))(await apiRequest("/api/x"), params({}));
    const bytes = Buffer.from(await small.arrayBuffer());
    expect(small.headers.get("content-type")).toBe("application/json");
    expect(Number(small.headers.get("content-length"))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString("utf8"))).toEqual({ name: "Zoë ✓" });
    expect(small.headers.get("cache-control")).toBe("no-store, no-transform");
    const large = await route(null, async () => ({ text: "x".repeat(2000) }))(await apiRequest("/api/x"), params({}));
    expect(large.headers.get("cache-control")).toBe("no-store");
  });

  it("hides unexpected errors behind a correlation id that is logged", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await route(null, async () => {
      throw new Error("db password=hunter2 at /srv/app.js:1");
    })(await apiRequest("/api/x"), params({}));
    expect(res.status).toBe(500);
    const text = await res.text();
    const id = res.headers.get("x-correlation-id")!;
    expect(text).not.toContain("hunter2");
    expect(text).not.toContain("app.js");
    expect(JSON.parse(text).error).toMatchObject({ code: "internal_error", correlationId: id });
    expect(String(log.mock.calls[0][0])).toContain(id);
    log.mockRestore();
  });

  it("accepts writes from PUBLIC_URL's origin even behind a proxy with another Host", async () => {
    const req = await apiRequest("/api/x", { method: "POST", origin: "http://localhost:3000", headers: { host: "10.0.0.5:3000" } });
    expect((await route(null, async () => ({ ok: true }))(req, params({}))).status).toBe(200);
    const evil = await apiRequest("/api/x", { method: "POST", origin: "null" });
    expect((await route(null, async () => ({ ok: true }))(evil, params({}))).status).toBe(403);
  });
});

describe("errorResponse", () => {
  it("names the field of the first zod issue, nested paths dotted", () => {
    const err = z.object({ to: z.array(z.object({ email: z.string() })) }).safeParse({ to: [{ email: 1 }] }).error!;
    return errorResponse(err, "cid").json().then((body) => {
      expect(body.error).toMatchObject({ param: "to.0.email", code: "validation_error", correlationId: "cid" });
      expect(body.error.message).toMatch(/^to\.0\.email: /);
    });
  });

  it("keeps an AppError's status, code and param", async () => {
    const res = errorResponse(new AppError(409, "last_admin", "role: no", "role"), "cid");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ error: { message: "role: no", code: "last_admin", param: "role", correlationId: "cid" } });
  });
});

describe("parseQuery", () => {
  it("validates query parameters, repeated keys as arrays", async () => {
    const schema = z.object({ tag: z.array(z.string()), limit: z.coerce.number() });
    expect(parseQuery(await apiRequest("/api/x?tag=a&tag=b&limit=5"), schema)).toEqual({ tag: ["a", "b"], limit: 5 });
  });
});

describe("parseBody", () => {
  it("a body that stops before its end (the sender went away, or was cut off for being slow) is a 400 naming the body, not a 500", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      let sent = false;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error("aborted"));
          sent = true;
          controller.enqueue(new TextEncoder().encode('{"name": "Ad'));
        },
      });
      const req = new Request("http://localhost:3000/api/x", { method: "POST", body, headers: { "content-type": "application/json", origin: "http://localhost:3000" }, duplex: "half" } as RequestInit);
      const res = await route(null, async ({ req }) => parseBody(req, z.object({ name: z.string() })))(req as never, params({}));
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: "validation_error", param: "body", message: "body: the request body was cut off." });
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
