import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { api, apiFetch, buildUrl, NETWORK_ERROR_MESSAGE, noContent } from "@/lib/api-client";
import { AppError } from "@/lib/errors";
import { createUserResponse } from "@/lib/schemas/users";

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  return vi.fn(async () => new Response(status === 204 ? null : text, { status, headers }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("buildUrl", () => {
  it("leaves out empty values and keeps existing query strings", () => {
    expect(buildUrl("/api/x", { a: "1", b: undefined, c: "", d: null, e: 0, f: false })).toBe("/api/x?a=1&e=0&f=false");
    expect(buildUrl("/api/x?z=1", { a: "b c" })).toBe("/api/x?z=1&a=b+c");
    expect(buildUrl("/api/x", {})).toBe("/api/x");
  });
});

describe("apiFetch", () => {
  it("sends JSON and returns the parsed body", async () => {
    const fetchMock = respond(200, { user: { id: "u1", email: "a@b.co", name: null, role: "admin", active: true, allProjects: true, projectIds: [], createdAt: "2026-01-01T00:00:00.000Z", lastSignInAt: null, activeSessions: 0 }, password: "secret" });
    vi.stubGlobal("fetch", fetchMock);
    const result = await api.post("/api/admin/users", { email: "a@b.co" }, { schema: async () => createUserResponse });
    expect(result.user.id).toBe("u1");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/admin/users");
    expect(init.method).toBe("POST");
    expect(init.body).toBe(JSON.stringify({ email: "a@b.co" }));
    expect((init.headers as Record<string, string>)["content-type"]).toBe("application/json");
    expect(init.cache).toBe("no-store");
  });

  it("throws an AppError with every field of the error body", async () => {
    vi.stubGlobal(
      "fetch",
      respond(422, { error: { message: "externalId is not a project of the service", code: "unknown_project", param: "externalId", correlationId: "c-123" } }),
    );
    const error = await apiFetch("/api/projects", { method: "POST", body: {}, schema: noContent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, code: "unknown_project", param: "externalId", correlationId: "c-123", message: "externalId is not a project of the service" });
  });

  it("falls back to a plain message when the body is not JSON", async () => {
    vi.stubGlobal("fetch", respond(503, "<html>Bad gateway</html>", { "x-correlation-id": "corr-9" }));
    const error = (await api.get("/api/health", { schema: noContent }).catch((e: unknown) => e)) as AppError;
    expect(error.status).toBe(503);
    expect(error.code).toBe("service_unavailable");
    expect(error.message).not.toContain("<html>");
    expect(error.correlationId).toBe("corr-9");
  });

  it("turns a network failure into a network_error AppError", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => { throw new TypeError("Failed to fetch"); }));
    const error = (await api.get("/api/x", { schema: noContent }).catch((e: unknown) => e)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe("network_error");
    expect(error.message).toBe(NETWORK_ERROR_MESSAGE);
  });

  it("lets an abort through unchanged so queries can cancel", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => { throw new DOMException("aborted", "AbortError"); }));
    const error = await api.get("/api/x", { schema: noContent }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
  });

  it("returns undefined for 204 and parses every answer with its schema", async () => {
    vi.stubGlobal("fetch", respond(204, undefined));
    await expect(api.delete("/api/projects/p1", { schema: noContent })).resolves.toBeUndefined();
    vi.stubGlobal("fetch", respond(200, { state: "up", latencyMs: 12, extra: true }));
    const schema = z.object({ state: z.enum(["up", "slow", "down"]), latencyMs: z.number() });
    await expect(api.get("/api/health", { schema: async () => schema })).resolves.toEqual({ state: "up", latencyMs: 12 });
    vi.stubGlobal("fetch", respond(200, { state: "sideways" }));
    const error = await api.get("/api/health", { schema: async () => schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 200, code: "invalid_response" });
    expect((error as AppError).message).toContain("state:");
  });

  it("refuses a body where none was expected, and no body where one was", async () => {
    vi.stubGlobal("fetch", respond(200, { surprise: true }));
    await expect(api.delete("/api/projects/p1", { schema: noContent })).rejects.toMatchObject({ code: "invalid_response" });
    vi.stubGlobal("fetch", respond(204, undefined));
    await expect(api.get("/api/health", { schema: async () => z.object({ state: z.string() }) })).rejects.toMatchObject({ code: "invalid_response" });
  });
});
