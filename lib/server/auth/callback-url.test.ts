import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./callback-url";

const origin = "http://localhost:3000";

describe("safeCallbackUrl", () => {
  it.each([
    ["/p/demo/messages?q=ada#top", "/p/demo/messages?q=ada#top"],
    ["http://localhost:3000/admin/users", "/admin/users"],
    [undefined, "/"],
    ["", "/"],
    ["https://evil.example/x", "/"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["relative/path", "/"],
    ["/login?callbackUrl=/x", "/"],
    ["/api/projects", "/"],
  ])("%s → %s", (input, expected) => {
    expect(safeCallbackUrl(input, origin)).toBe(expected);
  });
});
