import { describe, expect, it } from "vitest";
import { startChild } from "./child";
import { jsonConsole, jsonEcho, lineMessage, logFormatOf } from "./json-lines";

/**
 * LOG_FORMAT=json under `npm start` (scripts/start.ts): the launcher's own lines and every line
 * of the programs it starts are JSON objects, one a line, in the dashboard's shape.
 */
const parse = (lines: string[]) => lines.map((l) => {
  expect(l.endsWith("\n") && !l.slice(0, -1).includes("\n")).toBe(true);
  return JSON.parse(l) as Record<string, unknown>;
});

describe("the launcher's JSON lines", () => {
  it("reads LOG_FORMAT as the dashboard does: json only when it says json", () => {
    expect(logFormatOf({ LOG_FORMAT: "json" })).toBe("json");
    expect(logFormatOf({ LOG_FORMAT: " json " })).toBe("json");
    for (const LOG_FORMAT of [undefined, "", "text", "xml"]) expect(logFormatOf({ LOG_FORMAT })).toBe("text");
  });

  it("writes the launcher's own console lines as JSON objects, a terminal's blank lines dropped", () => {
    const lines: string[] = [];
    const target = { error: () => {}, warn: () => {}, info: () => {}, log: () => {}, debug: () => {} } as Pick<Console, "error" | "warn" | "info" | "log" | "debug">;
    jsonConsole(target, (l) => void lines.push(l));
    target.log("Starting the local email service on port 4010...");
    target.warn("\n  The service refused the key.\n  Starting the dashboard anyway.\n");
    target.error(`\n${"next build failed (exit 1); its output is above."}`);
    target.log("");
    const [started, warned, failed, ...rest] = parse(lines);
    expect(rest).toEqual([]);
    expect(started).toMatchObject({ level: "info", source: "launcher", message: "Starting the local email service on port 4010...", pid: process.pid });
    expect(new Date(String(started!.time)).toISOString()).toBe(started!.time);
    expect(warned).toMatchObject({ level: "warn", message: "The service refused the key.\n  Starting the dashboard anyway." });
    expect(failed).toMatchObject({ level: "error", message: "next build failed (exit 1); its output is above." });
  });

  it("keeps a child's JSON line and tags it; wraps any other line (Next's banner, a stack) as one", () => {
    const lines: string[] = [];
    const echo = jsonEcho("dashboard", (l) => void lines.push(l));
    const own = JSON.stringify({ level: "info", time: "2026-11-30T00:00:00.000Z", pid: 7, message: "First admin created: admin@example.com  password: pw" });
    echo(own, "stdout");
    echo("   ▲ Next.js 16.0.0", "stdout");
    echo("", "stdout");
    echo("Error: listen EADDRINUSE", "stderr");
    const [kept, banner, error, ...rest] = parse(lines);
    expect(rest).toEqual([]);
    expect(kept).toEqual({ ...JSON.parse(own), source: "dashboard" });
    expect(banner).toMatchObject({ level: "info", source: "dashboard", message: "▲ Next.js 16.0.0" });
    expect(error).toMatchObject({ level: "error", source: "dashboard", message: "Error: listen EADDRINUSE" });
    // start.ts finds the first admin's line in either format.
    expect(lineMessage(own)).toBe("First admin created: admin@example.com  password: pw");
    expect(lineMessage("First admin created: a@b.c")).toBe("First admin created: a@b.c");
  });

  it("gets a started program's stdout and stderr lines through startChild", async () => {
    const lines: string[] = [];
    const child = startChild({
      name: "t",
      command: process.execPath,
      args: ["-e", `console.log(JSON.stringify({ level: "info", message: "ready" })); console.error("plain trouble")`],
      env: process.env,
      echo: jsonEcho("t", (l) => void lines.push(l)),
    });
    await child.exited;
    const parsed = parse(lines);
    expect(parsed).toHaveLength(2);
    expect(parsed).toContainEqual(expect.objectContaining({ level: "info", message: "ready", source: "t" }));
    expect(parsed).toContainEqual(expect.objectContaining({ level: "error", message: "plain trouble", source: "t" }));
  });
});
