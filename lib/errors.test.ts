import { describe, expect, it } from "vitest";
import { AppError, appErrorFromBody, appErrorFromResponse, isAppError, toPlain } from "./errors";

describe("AppError", () => {
  it("round-trips through the API's error body", async () => {
    const sent = new AppError(409, "last_admin", "role: no", "role", "cid-1");
    const res = new Response(JSON.stringify(sent.toBody()), { status: 409 });
    const got = await appErrorFromResponse(res);
    expect(isAppError(got)).toBe(true);
    expect([got.status, got.code, got.message, got.param, got.correlationId]).toEqual([409, "last_admin", "role: no", "role", "cid-1"]);
  });

  it("survives bodies that are not ours", async () => {
    const html = await appErrorFromResponse(new Response("<html>Bad gateway</html>", { status: 502, headers: { "x-correlation-id": "c2" } }));
    expect([html.status, html.code, html.correlationId]).toEqual([502, "bad_gateway", "c2"]);
    expect(html.message).not.toContain("<html>");
    expect(appErrorFromBody(400, { message: "m", code: "c", param: "p" })).toMatchObject({ message: "m", code: "c", param: "p" });
    expect(appErrorFromBody(404, null)).toMatchObject({ code: "not_found", message: "Not found.", param: null });
  });

  it("recognises an AppError by shape as well as by class", () => {
    expect(isAppError({ name: "AppError", status: 400, code: "x", message: "m" })).toBe(true);
    expect(isAppError(new Error("x"))).toBe(false);
    expect(isAppError(null)).toBe(false);
  });

  it("becomes plain data a server component can hand a client one, still an AppError by shape", () => {
    const plain = toPlain(new AppError(503, "service_unavailable", "down", "cursor", "cid-3"));
    expect(plain).toEqual({ name: "AppError", status: 503, code: "service_unavailable", message: "down", param: "cursor", correlationId: "cid-3" });
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(structuredClone(plain)).toEqual(plain);
    expect(isAppError(plain)).toBe(true);
    expect(toPlain(new AppError(404, "not_found", "gone"))).toEqual({ name: "AppError", status: 404, code: "not_found", message: "gone", param: null });
  });
});
