import { afterEach, describe, expect, it } from "vitest";
import { setTestEnv } from "@/lib/server/test-helpers";
import { installJsonConsole, installLogFormat, jsonLogger, uninstallJsonConsole } from "./json-log";
import { writeRequestLine } from "./request-line";

/**
 * LOG_FORMAT=json (issue 29): one JSON object per line, with the fields an operator filters
 * by, and the human format's rule kept — the console guard's samples (contract/log/console-guard.test.ts)
 * never reach the line.
 */
function capture() {
  const lines: string[] = [];
  const logger = jsonLogger({ write: (line: string) => void lines.push(line) });
  const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, logger, parsed };
}
const sink = () => ({ error: () => {}, warn: () => {}, info: () => {}, log: () => {}, debug: () => {} }) as Pick<Console, "error" | "warn" | "info" | "log" | "debug">;

afterEach(() => uninstallJsonConsole());

const SECRET = "$2b$10$hashhashhashhashhashhash";

describe("the JSON log", () => {
  it("writes each console line as one JSON object with time, level and message", () => {
    const { lines, logger, parsed } = capture();
    const target = sink();
    installJsonConsole(target, logger);
    target.warn("event stream: project %s acknowledged a delivery it cannot use", "demo");
    target.error(new TypeError("cannot read properties of undefined"));
    target.info("Registered project demo");
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    const [warn, error, info] = parsed();
    expect(warn).toMatchObject({ level: "warn", message: "event stream: project demo acknowledged a delivery it cannot use" });
    expect(new Date(String(warn!.time)).toISOString()).toBe(warn!.time);
    expect(error).toMatchObject({ level: "error" });
    expect(String(error!.message)).toMatch(/^TypeError: cannot read properties/);
    expect(info).toMatchObject({ level: "info", message: "Registered project demo" });
  });

  it("never writes what the human format scrubs: SQL parameters, row detail, quoted input, URL credentials, addresses", () => {
    const { lines, logger } = capture();
    const target = sink();
    installJsonConsole(target, logger);
    const cause = Object.assign(new Error(`duplicate key value violates unique constraint "users_email_idx"`), { code: "23505", constraint: "users_email_idx", detail: `Key (email)=(ada@example.com)` });
    const error = Object.assign(new Error(`Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: ada@example.com,${SECRET}`), {
      name: "DrizzleQueryError",
      query: `insert into "users" ("email", "password_hash") values ($1, $2)`,
      params: ["ada@example.com", SECRET],
      cause,
    });
    target.error("⨯", error);
    target.warn(`retention: Failed query: insert into "users" values ($1)\nparams: ada@example.com,${SECRET}`);
    target.warn(`re-read: duplicate key value violates unique constraint "users_email_idx" Key (email)=(ada@example.com) already exists.`);
    target.warn(`event stream: invalid input syntax for type uuid: "${SECRET}"`);
    target.error(`alerts: POST http://user:pw@hooks.example/x?token=tok-123 failed`);
    target.info(`reply: could not record mail to grace.hopper@navy.example.org`);
    const written = lines.join("");
    for (const value of [SECRET, "ada@example.com", "pw@", "tok-123", "grace.hopper"]) expect(written).not.toContain(value);
    expect(written).toContain("code=23505");
    expect(written).toContain("***@navy.example.org");
    // Each still one parseable line.
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(["error", "warn", "warn", "warn", "error", "info"]);
  });

  it("writes a request's line with its id, route pattern, status, duration, user and project, and nothing of its path", () => {
    const { logger, parsed } = capture();
    writeRequestLine(logger, { requestId: "r-1", method: "GET", route: "/api/p/[project]/recipients/[email]", status: 200, durationMs: 12.345, userId: "u-1", project: "demo" });
    writeRequestLine(logger, { requestId: "r-2", method: "POST", route: "other", status: 503, durationMs: 1, userId: null, project: null });
    const [ok, failed] = parsed();
    expect(ok).toMatchObject({ level: "info", message: "request", requestId: "r-1", method: "GET", route: "/api/p/[project]/recipients/[email]", status: 200, durationMs: 12.3, userId: "u-1", project: "demo" });
    expect(Object.keys(ok!).sort()).toEqual(["durationMs", "level", "message", "method", "pid", "project", "requestId", "route", "status", "time", "userId"]);
    expect(failed).toMatchObject({ level: "error", status: 503, userId: null });
  });

  it("reports a start whose environment does not validate as a JSON line too, when LOG_FORMAT=json", () => {
    const { parsed, logger } = capture();
    const target = sink();
    setTestEnv({ LOG_FORMAT: "json", AUTH_SECRET: undefined, INGEST_MAX_BYTES: "lots" });
    try {
      installLogFormat(target, logger);
      // What lib/server/startup.ts writes before it exits.
      target.error("\nInvalid environment:\n  - AUTH_SECRET is required\n\nSet these variables (see README) and start again.\n");
      expect(parsed()).toEqual([expect.objectContaining({ level: "error", message: expect.stringContaining("Invalid environment") })]);
    } finally {
      setTestEnv();
    }
  });

  it("leaves the human format when LOG_FORMAT is not json, or not valid", () => {
    for (const LOG_FORMAT of [undefined, "text", "xml"]) {
      const { lines, logger } = capture();
      setTestEnv({ LOG_FORMAT, AUTH_SECRET: undefined });
      const target = sink();
      installLogFormat(target, logger);
      target.error("Invalid environment");
      expect(lines).toEqual([]);
      uninstallJsonConsole();
    }
    setTestEnv();
  });
});
