import "server-only";
import { format } from "node:util";
import pino, { type DestinationStream, type Logger } from "pino";
import { reduceLogArgument } from "@/contract/log/console-guard";
import { env, logFormatSetting } from "@/lib/server/env";

/**
 * LOG_FORMAT=json (issue 29): every line the dashboard logs becomes one JSON object (pino) with
 * `time`, `level` and `message`, and each answered request gets a line of its own
 * (./request-line.ts). The call sites stay as they are — they write to the console — and the console
 * is routed here. The rule of the human format holds (contract/log/console-guard.ts): errors
 * go through their safe summary, text through the scrub (no SQL parameters, addresses' local
 * parts, URLs' credentials); console.log stays unscrubbed, as start-up prints there what the
 * operator must see. The human format (the default) is the console as it was.
 */
type Method = "error" | "warn" | "info" | "log" | "debug";
const LEVEL: Record<Method, "error" | "warn" | "info" | "debug"> = { error: "error", warn: "warn", info: "info", log: "info", debug: "debug" };

export function jsonLogger(destination: DestinationStream = pino.destination(1)): Logger {
  return pino(
    {
      messageKey: "message",
      timestamp: pino.stdTimeFunctions.isoTime,
      // The level as its word ("warn"), not pino's number.
      formatters: { level: (label) => ({ level: label }) },
      base: { pid: process.pid },
      level: "debug",
    },
    destination,
  );
}

const KEY = Symbol.for("mail-dashboard.json-log");
type Holder = { [KEY]?: Logger };

/** The process's JSON logger once installed; undefined in the human format. */
export function installedJsonLogger(): Logger | undefined {
  return (globalThis as Holder)[KEY];
}

/** Routes `target`'s methods to a JSON logger, once per process (instrumentation.ts, when LOG_FORMAT=json). */
export function installJsonConsole(target: Pick<Console, Method> = console, logger: Logger = jsonLogger()): Logger {
  const holder = globalThis as Holder;
  if (holder[KEY]) return holder[KEY];
  for (const method of Object.keys(LEVEL) as Method[]) {
    const scrub = method !== "log";
    target[method] = (...args: unknown[]) => logger[LEVEL[method]](format(...(scrub ? args.map(reduceLogArgument) : args)));
  }
  return (holder[KEY] = logger);
}

/** Tests: forget the installed logger (the console they routed is their own). */
export function uninstallJsonConsole(): void {
  delete (globalThis as Holder)[KEY];
}

/**
 * At start (instrumentation.ts): the JSON format when LOG_FORMAT=json. When the rest of the
 * environment does not validate, LOG_FORMAT is read alone, so the start-up's report of what is
 * wrong (lib/server/startup.ts) is a JSON line too; an invalid LOG_FORMAT leaves the human format.
 */
export function installLogFormat(target?: Pick<Console, Method>, logger?: Logger): void {
  let format: string;
  try {
    format = env().LOG_FORMAT;
  } catch {
    format = logFormatSetting();
  }
  if (format === "json") installJsonConsole(target, logger);
}
