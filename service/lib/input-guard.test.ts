import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_REQUEST_BYTES } from "../../contract/wire/limits";
import { postUntilAnswered } from "../../contract/http/flood";
import { hugeBody } from "../../contract/http/huge-body";
import { createTestService, type TestService } from "../test/harness";

/**
 * Input that used to become a 500 (NUL bytes reach Postgres, which refuses them) or an
 * unbounded read (a chunked body collected whole), each answered as a 4xx naming the field.
 */
let svc: TestService;
beforeAll(async () => {
  svc = await createTestService();
});
afterAll(() => svc.close());

async function errorOf(res: Response) {
  return { status: res.status, ...((await res.json()) as { error: { code: string; param: string | null; message: string } }).error };
}

describe("NUL characters and malformed percent-encoding", () => {
  it.each([
    ["/v1/emails/%00", "id"],
    ["/v1/emails/msg_1%00x", "id"],
    ["/v1/contacts/%zz", "id"],
    ["/v1/emails/%E0%A4%A", "id"],
    ["/v1/templates/abc%", "id"],
    ["/v1/emails/msg_1/attachments/%00", "attachmentId"],
    ["/v1/emails/%C3%28/attachments", "id"],
  ])("GET %s is a 400 naming %s", async (path, param) => {
    const e = await errorOf(await svc.call("GET", path));
    expect(e).toMatchObject({ status: 400, code: "validation_error", param });
    expect(e.message.startsWith(`${param}: `)).toBe(true);
  });

  it("refuses a malformed path before authentication, so signed out gets the same 400", async () => {
    const res = await svc.app.request("/v1/emails/%zz");
    expect(await errorOf(res)).toMatchObject({ status: 400, param: "id" });
  });

  it("names the query parameter holding a NUL", async () => {
    expect(await errorOf(await svc.call("GET", "/v1/templates?cursor=%00"))).toMatchObject({ status: 400, param: "cursor" });
    expect(await errorOf(await svc.call("GET", "/v1/domains?status=pending%00"))).toMatchObject({ status: 400, param: "status" });
  });

  it.each([
    ["/v1/contacts", { email: "ada@example.com", firstName: "A\u0000da" }, "firstName"],
    ["/v1/contacts", { email: "ada@example.com", metadata: { plan: { tier: "\u0000" } } }, "metadata.plan.tier"],
    ["/v1/suppressions", { email: "a\u0000@example.com" }, "email"],
    ["/v1/emails", { from: { email: "a@alpha.test" }, to: [{ email: "b@example.com" }], subject: "x", headers: { "X-A\u0000": "v" } }, "headers.X-A\\u0000"],
    ["/v1/api-keys", { name: "k\u0000" }, "name"],
  ])("POST %s with a NUL names the field", async (path, body, param) => {
    expect(await errorOf(await svc.call("POST", path, { body }))).toMatchObject({ status: 400, code: "validation_error", param });
  });

  it("refuses malformed JSON and nesting too deep, naming the body", async () => {
    const bad = await svc.app.request("/v1/contacts", {
      method: "POST",
      headers: { Authorization: `Bearer ${svc.accountKey}`, "X-Service-Product": "alpha", "Content-Type": "application/json" },
      body: '{"email": "a@b.co",',
    });
    expect(await errorOf(bad)).toMatchObject({ status: 400, code: "invalid_json", param: "body" });
    let deep: unknown = "x";
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const nested = await svc.call("POST", "/v1/contacts", { body: { email: "a@b.co", metadata: deep } });
    expect(await errorOf(nested)).toMatchObject({ status: 400, code: "validation_error" });
  });
});

describe("request bodies are read with a byte cap", () => {
  it("refuses a 400 MB chunked body after reading at most the limit (in process)", async () => {
    const body = hugeBody(400 * 1024 * 1024);
    const res = await svc.app.request("/v1/contacts", {
      method: "POST",
      headers: { Authorization: `Bearer ${svc.accountKey}`, "X-Service-Product": "alpha", "Content-Type": "application/json" },
      body: body.stream,
      duplex: "half",
    } as RequestInit);
    expect(await errorOf(res)).toMatchObject({ status: 413, code: "payload_too_large", param: "body" });
    expect(body.pulled()).toBeLessThanOrEqual(MAX_REQUEST_BYTES + 64 * 1024);
  });

  it("over real HTTP, answers 413 long before a 400 MB chunked upload is through", async () => {
    const server = serve({ fetch: svc.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    const total = 400 * 1024 * 1024;
    try {
      const { status, sentWhenAnswered } = await postUntilAnswered(
        `http://127.0.0.1:${port}/v1/contacts`,
        { Authorization: `Bearer ${svc.accountKey}`, "X-Service-Product": "alpha", "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
        total,
      );
      expect(status).toBe(413);
      // The server answered after about the limit (plus what sat in socket buffers), not after 400 MB.
      expect(sentWhenAnswered).toBeLessThan(MAX_REQUEST_BYTES + 16 * 1024 * 1024);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("error logging", () => {
  it("logs the request id and the SQLSTATE of a failed query, never its parameters", async () => {
    const secret = "whsec_bmV2ZXItbG9nLXRoaXMtc2lnbmluZy1zZWNyZXQ";
    const { sql } = await import("drizzle-orm");
    // A service of its own: a route can only be added before the app answers its first request.
    const own = await createTestService();
    own.app.get("/v1/test-only/fail", async () => {
      await own.db.execute(sql`select ${secret}::uuid`);
      return new Response(null);
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await own.call("GET", "/v1/test-only/fail");
      expect(res.status).toBe(500);
      const logged = log.mock.calls.flat().map(String).join("\n");
      expect(logged).toContain(res.headers.get("x-request-id")!);
      expect(logged).toContain("code=22P02");
      for (let i = 0; i + 6 <= secret.length; i++) expect(logged).not.toContain(secret.slice(i, i + 6));
    } finally {
      log.mockRestore();
      await own.close();
    }
  });
});
