import { describe, expect, it } from "vitest";
import { decodeParam } from "./decode-param";

describe("decodeParam", () => {
  it("decodes once, and keeps malformed escapes and escaped NULs as they are", () => {
    expect(decodeParam("ada%40example.com")).toBe("ada@example.com");
    expect(decodeParam("%2500")).toBe("%00");
    expect(decodeParam("%zz")).toBe("%zz");
    expect(decodeParam("a%00b")).toBe("a%00b");
  });
});
