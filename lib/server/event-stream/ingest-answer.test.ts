import { afterEach, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/errors";
import { ingestErrorAnswer } from "./ingest-answer";
import { ingestBusy } from "./ingest-limits";

/**
 * The ingest's error answer, through the dashboard's one errorResponse (lib/server/http/error-answer.ts):
 * the one shape, no-store, the correlation id, Retry-After on its own 429s, the log line by
 * method and path and never the values.
 */
afterEach(() => vi.restoreAllMocks());

describe("ingestErrorAnswer", () => {
  it("answers an unexpected failure as a 500 naming only the id, logged as POST <path>", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = ingestErrorAnswer(new Error("boom"), "/api/ingest/p1?x=1");
    const id = res.headers.get("X-Correlation-Id")!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.status).toBe(500);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Retry-After")).toBeNull();
    expect(await res.json()).toEqual({
      error: { message: `Something went wrong on our side. Reference: ${id}.`, code: "internal_error", param: null, correlationId: id },
    });
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0]![0])).toMatch(new RegExp(`^\\[${id}\\] POST /api/ingest/p1\\?x=1 failed: `));
  });

  it("says when to come back on a 429, without changing the thrown error", async () => {
    const busy = new AppError(429, "ingest_busy", "Busy.");
    const res = ingestErrorAnswer(busy, "/api/ingest/p1");
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("1");
    expect((await res.json()).error).toMatchObject({ code: "ingest_busy", message: "Busy.", param: null });
    expect(busy.retryAfterMs).toBeUndefined();
    expect(ingestErrorAnswer(ingestBusy({ name: "total", limit: 1024, kind: "total" }), "/api/ingest/p1").headers.get("Retry-After")).toBe("1");
  });

  it("passes a 503's own Retry-After and a 4xx's field, logging a 5xx AppError by code", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const down = new AppError(503, "service_unavailable", "Down.");
    down.retryAfterMs = 2500;
    const res = ingestErrorAnswer(down, "/api/ingest/p1");
    expect(res.headers.get("Retry-After")).toBe("3");
    expect(String(log.mock.calls[0]![0])).toMatch(/^\[[0-9a-f-]{36}\] POST \/api\/ingest\/p1 → 503 service_unavailable: Down\.$/);
    const bad = ingestErrorAnswer(new AppError(400, "validation_error", "project: bad", "project"), "/api/ingest/x");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: "validation_error", param: "project" });
  });
});
