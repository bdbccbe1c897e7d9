import { safeErrorSummary } from "./safe-error";
import { scrubLogText } from "./scrub";

/**
 * Errors that reach the log by a path of nobody's making — Next printing an error a page
 * threw, a library's own console.error — are written through safeErrorSummary too, so a
 * failed query's parameters (a password hash, a signing secret, a message body) never reach
 * the log that way either. Text is scrubbed as well (scrubLogText): most call sites write
 * `${e.message}` into their line, and that message carries the same values. console.log is
 * left alone: start-up prints there what the operator must see (the first admin's generated
 * password).
 */
const GUARDED = Symbol.for("mail-dashboard.console-guarded");

/** One argument of a log call as it may be written: an error as its safe summary, text scrubbed (also the JSON log's, lib/server/log/). */
export function reduceLogArgument(arg: unknown): unknown {
  if (arg instanceof Error) return safeErrorSummary(arg);
  if (typeof arg === "string") return scrubLogText(arg);
  return arg;
}

export function guardConsoleErrors(target: Pick<Console, "error" | "warn"> & Partial<Pick<Console, "info">> = console): void {
  const holder = target as typeof target & { [GUARDED]?: boolean };
  if (holder[GUARDED]) return;
  holder[GUARDED] = true;
  for (const level of ["error", "warn", "info"] as const) {
    const original = target[level]?.bind(target);
    if (!original) continue;
    target[level] = (...args: unknown[]) => original(...args.map(reduceLogArgument));
  }
}
