import { describe, expect, it } from "vitest";
import { MAX_ATTACHMENTS_BYTES, MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { presendDraft } from "@/lib/schemas/presend";
import { checkSize, GMAIL_CLIP_BYTES, offsetAtByte } from "./size";
import { parseSource } from "./source";

const draft = (over: Record<string, unknown>) => presendDraft.parse({ subject: "s", ...over });

describe("size checks", () => {
  it("counts UTF-8 bytes, not characters, to find where Gmail clips", () => {
    expect(offsetAtByte("abc", 2)).toBe(2);
    expect(offsetAtByte("éé", 2)).toBe(1);
    expect(offsetAtByte("😀a", 4)).toBe(2);
    expect(offsetAtByte("short", 100)).toBe(-1);
  });

  it("says where the clip happens in an html over 102 KB", () => {
    // Line 1: 1,000 two-byte characters (2,000 bytes); then lines of 99 ASCII characters and a newline.
    const line1 = "é".repeat(1000);
    const rest = Array.from({ length: 1100 }, () => "x".repeat(99)).join("\n");
    const html = `${line1}\n${rest}`;
    const findings = checkSize(draft({ html }), parseSource(html));
    expect(findings).toHaveLength(1);
    // Bytes left after line 1 and its newline: 102*1024 - 2001 = 102447 → 1024 full lines of 100 bytes, then 47 more.
    const left = GMAIL_CLIP_BYTES - 2001;
    expect(findings[0]).toMatchObject({ rule: "gmail-clip", severity: "warning", place: { line: 2 + Math.floor(left / 100), column: (left % 100) + 1 } });
    expect(findings[0]!.message).toMatch(/Gmail clips messages over 102 KB, hiding everything from line 1026, column 48/);
  });

  it("notes an html close to the clip, and says nothing below that", () => {
    const near = "x".repeat(95 * 1024);
    expect(checkSize(draft({ html: near }), parseSource(near)).map((f) => [f.rule, f.severity])).toEqual([["gmail-clip-near", "info"]]);
    const small = "x".repeat(50 * 1024);
    expect(checkSize(draft({ html: small }), parseSource(small))).toEqual([]);
  });

  it("holds the attachments and the whole request against the stated limits", () => {
    const over = checkSize(draft({ text: "t", attachments: [{ filename: "a.pdf", size: MAX_ATTACHMENTS_BYTES + 1 }] }), null);
    expect(over.map((f) => [f.rule, f.severity])).toEqual([["attachments-limit", "error"]]);
    // Under the attachment limit, but a 12 MB html and the encoded attachments exceed one request. (A check
    // reads at most 1,000,000 characters of html, so this draft is built past the schema, for checkSize alone.)
    const html = "x".repeat(12 * 1024 * 1024);
    const both = checkSize({ ...draft({ attachments: [{ filename: "a.pdf", size: MAX_ATTACHMENTS_BYTES - 10 }] }), html }, null);
    expect(both.map((f) => f.rule)).toEqual(["message-limit"]);
    expect(both[0]!.message).toContain(`${MAX_REQUEST_BYTES / 1024 / 1024}.0 MB`);
    expect(checkSize(draft({ text: "t", attachments: [{ filename: "a.pdf", size: 1024 }] }), null)).toEqual([]);
  });
});
