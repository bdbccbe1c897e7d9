import { safeErrorSummary } from "./safe-error";

/**
 * Errors that reach the log by a path of nobody's making — Next printing an error a page
 * threw, a library's own console.error — are written through safeErrorSummary too, so a
 * failed query's parameters (a password hash, a signing secret, a message body) never reach
 * the log that way either. Only arguments that are Errors are touched; text is the caller's.
 */
const GUARDED = Symbol.for("mail-dashboard.console-guarded");

export function guardConsoleErrors(target: Pick<Console, "error" | "warn"> = console): void {
  const holder = target as typeof target & { [GUARDED]?: boolean };
  if (holder[GUARDED]) return;
  holder[GUARDED] = true;
  for (const level of ["error", "warn"] as const) {
    const original = target[level].bind(target);
    target[level] = (...args: unknown[]) => original(...args.map((a) => (a instanceof Error ? safeErrorSummary(a) : a)));
  }
}
