import "server-only";
import type { Logger } from "pino";

/**
 * The fields of one answered request. Only these: the route's pattern stands for the path (a
 * path can hold an address), and nothing of the query, the body or the headers is written.
 */
export type RequestLine = {
  requestId: string;
  method: string;
  route: string;
  /** null: the client went away before any answer was written. */
  status: number | null;
  durationMs: number;
  userId: string | null;
  project: string | null;
};

export function writeRequestLine(logger: Logger, line: RequestLine): void {
  const level = line.status !== null && line.status >= 500 ? "error" : "info";
  logger[level]({ ...line, durationMs: Math.round(line.durationMs * 10) / 10 }, "request");
}
