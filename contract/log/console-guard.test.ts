import { describe, expect, it } from "vitest";
import { guardConsoleErrors } from "./console-guard";

describe("guardConsoleErrors", () => {
  it("writes a failed query's error without its parameters, whoever logs it", () => {
    const lines: unknown[][] = [];
    const sink = { error: (...a: unknown[]) => void lines.push(a), warn: (...a: unknown[]) => void lines.push(a) };
    guardConsoleErrors(sink);
    const secret = "$2b$10$hashhashhashhashhashhash";
    const cause = Object.assign(new Error(`duplicate key value violates unique constraint "users_email_idx"`), { code: "23505", constraint: "users_email_idx", detail: `Key (email)=(ada@example.com)` });
    const error = Object.assign(new Error(`Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: ada@example.com,${secret}`), { name: "DrizzleQueryError", query: `insert into "users" ("email", "password_hash") values ($1, $2)`, params: ["ada@example.com", secret], cause });
    sink.error("⨯", error);
    sink.warn(error);
    const written = JSON.stringify(lines);
    expect(written).not.toContain(secret);
    expect(written).not.toContain("ada@example.com");
    expect(written).toContain("code=23505");
    expect(written).toContain("tables=users");
    // Text stays the caller's.
    sink.error("plain words");
    expect(lines.at(-1)).toEqual(["plain words"]);
  });

  it("wraps a console once, however often it is called", () => {
    const lines: unknown[][] = [];
    const sink = { error: (...a: unknown[]) => void lines.push(a), warn: () => {} };
    guardConsoleErrors(sink);
    guardConsoleErrors(sink);
    sink.error(new Error("once"));
    expect(lines).toHaveLength(1);
  });
});

describe("guardConsoleErrors on text", () => {
  it("scrubs values out of lines that quote an error's message (params, row detail, quoted input, URLs, addresses)", () => {
    const lines: unknown[][] = [];
    const sink = { error: (...a: unknown[]) => void lines.push(a), warn: (...a: unknown[]) => void lines.push(a), info: (...a: unknown[]) => void lines.push(a) };
    guardConsoleErrors(sink);
    const secret = "$2b$10$hashhashhashhashhashhash";
    const drizzle = `Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: ada@example.com,${secret}`;
    sink.warn(`retention: ${drizzle}`);
    sink.warn(`re-read: duplicate key value violates unique constraint "users_email_idx" Key (email)=(ada@example.com) already exists.`);
    sink.warn(`event stream: invalid input syntax for type uuid: "${secret}"`);
    sink.error(`alerts: POST http://user:pw@hooks.example/x?token=tok-123 failed`);
    sink.info(`reply: could not record mail to grace.hopper@navy.example.org`);
    const written = JSON.stringify(lines);
    for (const value of [secret, "ada@example.com", "pw@", "tok-123", "grace.hopper"]) expect(written).not.toContain(value);
    expect(written).toContain("users_email_idx");
    expect(written).toContain("Key (email)=(***)");
    expect(written).toContain("http://***@hooks.example/x?token=***");
    expect(written).toContain("***@navy.example.org");
    expect(written).toContain(`insert into \\"users\\"`);
  });

  it("scrubs in linear time", async () => {
    const { scrubLogText } = await import("./scrub");
    const hostile = [": \"".repeat(50_000), "a".repeat(100_000) + "@", "@a".repeat(50_000), "a@".repeat(50_000), "Key (".repeat(20_000), "http://".repeat(15_000), "x params: ".repeat(10_000)];
    for (const text of hostile) {
      const started = performance.now();
      scrubLogText(text);
      // Linear: tens of milliseconds. A quadratic scan of these 100,000 characters takes many seconds.
      expect(performance.now() - started, text.slice(0, 10)).toBeLessThan(2000);
    }
  });

  it("scrubs an address followed by a long run of dots in linear time (the review's 5xx pathname)", async () => {
    const { scrubLogText } = await import("./scrub");
    // 32,000 dots: a trim by /\.+$/ retries from every dot (≈2–4 s); a loop takes well under 10 ms.
    const text = `GET /x a@${".".repeat(32_000)}b.example y`;
    const started = performance.now();
    const out = scrubLogText(text);
    expect(performance.now() - started).toBeLessThan(300);
    expect(out.startsWith("GET /x ***@")).toBe(true);
    expect(scrubLogText("mail ada@navy.example.org. and more")).toBe("mail ***@navy.example.org. and more");
  });
});
