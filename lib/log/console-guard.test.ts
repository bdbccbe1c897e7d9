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
