import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { hasMalformedEscape, malformedPathResponse } from "./malformed-path";

describe("paths whose percent-encoding does not decode", () => {
  it.each(["/p/%zz", "/p/acme/messages/%E0%A4%A", "/api/p/x/messages/abc%", "/p/%C3%28"])("%s is malformed", (path) => {
    expect(hasMalformedEscape(path)).toBe(true);
  });
  it.each(["/p/acme", "/p/acme/recipients/ada%40example.com", "/p/%2500", "/p/caf%C3%A9"])("%s is not", (path) => {
    expect(hasMalformedEscape(path)).toBe(false);
  });

  it("answers a 400 page, and under /api the JSON error naming the path", async () => {
    const page = malformedPathResponse(new NextRequest("http://localhost:3000/p/%zz"))!;
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("This address is not valid");
    const api = malformedPathResponse(new NextRequest("http://localhost:3000/api/p/%zz/messages"))!;
    expect(api.status).toBe(400);
    expect((await api.json()).error).toMatchObject({ code: "validation_error", param: "path" });
    expect(malformedPathResponse(new NextRequest("http://localhost:3000/p/acme"))).toBeNull();
  });
});
