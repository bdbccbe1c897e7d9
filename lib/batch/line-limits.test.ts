import { describe, expect, it } from "vitest";
import { lineLimitIssue } from "./line-limits";

const limits = { maxLines: 3, maxLineChars: 10 };

describe("lineLimitIssue", () => {
  it("counts lines ended by \\n, \\r\\n or \\r alike, leaving blank lines out", () => {
    expect(lineLimitIssue("a\nb\r\nc\n\n   \n", limits)).toBeNull();
    expect(lineLimitIssue("a\rb\rc", limits)).toBeNull();
    expect(lineLimitIssue("a\n\nb\r\nc\rd", limits)).toBe("has more than 3 lines (line 5); split it into smaller lists");
  });

  it("names the first line that is too long, by its number in the text", () => {
    expect(lineLimitIssue("0123456789\r\n0123456789", limits)).toBeNull();
    expect(lineLimitIssue("ok\r\n\r\n01234567890", limits)).toBe("line 3 is longer than 10 characters");
  });

  it("is linear: a 10 MB single line is judged at once", () => {
    const started = performance.now();
    expect(lineLimitIssue("x".repeat(10 * 1024 * 1024), { maxLines: 10_001, maxLineChars: 1_000 })).toMatch(/^line 1 is longer/);
    expect(lineLimitIssue("a@b.co\n".repeat(10_002), { maxLines: 10_001, maxLineChars: 1_000 })).toMatch(/line 10,002/);
    // 10 MB of full lines and no \r: each line break is looked for once, not the rest of the text each line.
    expect(lineLimitIssue(`${"x".repeat(999)}\n`.repeat(10_001), { maxLines: 10_001, maxLineChars: 1_000 })).toBeNull();
    // Blank lines are not counted, so nothing but the size bounds them: 10 MB of them is still one pass.
    expect(lineLimitIssue(`${"\n".repeat(10 * 1024 * 1024 - 1)}a`, { maxLines: 10_001, maxLineChars: 1_000 })).toBeNull();
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
