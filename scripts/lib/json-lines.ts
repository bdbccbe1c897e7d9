/**
 * LOG_FORMAT=json for the launcher (scripts/start.ts): its own lines, and every line of the
 * programs it starts, as one JSON object per line — the shape the dashboard writes
 * (lib/server/log/json-log.ts: `level`, `time`, `pid`, `message`), with `source` saying which
 * program wrote it. A child's line that is already a JSON object (the dashboard's) is kept and
 * tagged; any other (Next's banner, the local service's lines, a crash's stack) becomes the
 * `message` of one. In the text format nothing changes.
 */
export type LogFormat = "text" | "json";
type Level = "error" | "warn" | "info" | "debug";
type Write = (line: string) => void;

/** As the dashboard reads it (lib/server/env.ts): json only when it says json. */
export const logFormatOf = (vars: Record<string, string | undefined>): LogFormat => (vars.LOG_FORMAT?.trim() === "json" ? "json" : "text");

const stdout: Write = (line) => void process.stdout.write(line);

export function jsonLine(level: Level, message: string, fields: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, ...fields, message })}\n`;
}

type Method = "error" | "warn" | "info" | "log" | "debug";
const LEVEL: Record<Method, Level> = { error: "error", warn: "warn", info: "info", log: "info", debug: "debug" };

/** The launcher's console as JSON lines (its messages go on printing through console, as in the text format). */
export function jsonConsole(target: Pick<Console, Method> = console, write: Write = stdout): void {
  for (const method of Object.keys(LEVEL) as Method[]) {
    target[method] = (...args: unknown[]) => {
      // A message written with blank lines around it for the terminal is one line here.
      const text = args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : typeof a === "string" ? a : JSON.stringify(a))).join(" ").trim();
      if (text) write(jsonLine(LEVEL[method], text, { source: "launcher" }));
    };
  }
}

/** The text of a child's line: a JSON line's `message`, any other line as it is. */
export function lineMessage(line: string): string {
  const object = jsonObject(line);
  return object && typeof object.message === "string" ? object.message : line;
}

/** Echoes a child's lines as JSON lines, tagged with `source`. */
export function jsonEcho(source: string, write: Write = stdout): (line: string, stream: "stdout" | "stderr") => void {
  return (line, stream) => {
    const object = jsonObject(line);
    if (object) write(`${JSON.stringify({ ...object, source: object.source ?? source })}\n`);
    else if (line.trim()) write(jsonLine(stream === "stderr" ? "error" : "info", line.trim(), { source }));
  };
}

function jsonObject(line: string): Record<string, unknown> | null {
  if (!line.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
