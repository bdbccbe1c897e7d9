import { describe, expect, it } from "vitest";
import { hugeBody } from "@/contract/http/huge-body";
import { BodyTooLargeError, formatBytes, readBodyBytes, readBodyText } from "./read-body";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://x.test/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readBodyBytes", () => {
  it("stops reading a chunked body at the limit instead of collecting it whole", async () => {
    const limit = 1024 * 1024;
    const body = hugeBody(400 * 1024 * 1024);
    await expect(readBodyBytes(post(body.stream), limit)).rejects.toBeInstanceOf(BodyTooLargeError);
    // The limit plus the chunk that crossed it (64 KB), not 400 MB.
    expect(body.pulled()).toBeLessThanOrEqual(limit + 64 * 1024);
    expect(body.cancelled()).toBe(true);
  });

  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const body = hugeBody(10 * 1024 * 1024);
    const req = post(body.stream, { "content-length": String(10 * 1024 * 1024) });
    await expect(readBodyBytes(req, 1024)).rejects.toMatchObject({ limit: 1024 });
    expect(body.pulled()).toBe(0);
  });

  it("returns a body at the limit exactly, and an absent body as empty", async () => {
    const text = "é".repeat(512); // 1024 bytes
    expect(await readBodyText(post(text), 1024)).toBe(text);
    await expect(readBodyText(post(`${text}x`), 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await readBodyText(new Request("http://x.test/"), 10)).toBe("");
  });

  it("joins many chunks in order", async () => {
    const body = hugeBody(200_000, 1000);
    const bytes = await readBodyBytes(post(body.stream), 300_000);
    expect(bytes.byteLength).toBe(200_000);
    expect(bytes.every((b) => b === 0x61)).toBe(true);
  });

  it("states limits the way the README does", () => {
    expect(formatBytes(20 * 1024 * 1024)).toBe("20 MB");
    expect(formatBytes(512 * 1024)).toBe("512 KB");
    expect(formatBytes(1000)).toBe("1000 bytes");
  });
});
