import "server-only";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/errors";
import { formatBytes } from "@/contract/http/read-body";
import { safeErrorSummary } from "@/contract/log/safe-error";

/**
 * The dashboard's one error answer and the errors of a request's body, below everything that
 * answers a request: route() (lib/server/gate/route.ts), the body limits on Node's server
 * (./request-body-limits.ts) and the ingest (lib/server/event-stream/ingest-answer.ts).
 */

const NO_STORE = "no-store";

function isZodError(e: unknown): e is z.ZodError {
  return e instanceof z.ZodError || (e instanceof Error && e.name === "ZodError" && Array.isArray((e as z.ZodError).issues));
}

/** The first issue names the field: `param` is its dotted path, the message starts with it. */
export function appErrorFromZod(e: z.ZodError): AppError {
  const issue = e.issues[0];
  // An issue about the whole input (a body that is not an object) names the body.
  const param = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "body";
  const text = issue?.message ?? "is not valid";
  return new AppError(400, "validation_error", `${param}: ${text}`, param);
}

/**
 * Any error as the one error shape (`AppError.toBody()` with the correlation id), `no-store`,
 * `X-Correlation-Id`. `req` names the request in the log: the request itself (its method and
 * path), or that already written ("POST /api/ingest/…") by a caller that has no Request.
 */
export function errorResponse(e: unknown, correlationId: string, req?: Request | string): Response {
  const where = typeof req === "string" ? req : `${req?.method ?? ""} ${req ? new URL(req.url).pathname : ""}`;
  let err: AppError;
  if (isZodError(e)) {
    err = appErrorFromZod(e);
  } else if (isAppError(e)) {
    err = e;
    if (err.status >= 500) {
      console.error(`[${correlationId}] ${where} → ${err.status} ${err.code}: ${err.message}`);
    }
  } else {
    // Unexpected: what failed and where stays in the server log under the correlation id;
    // never the values it was working on (a failed query's parameters hold secrets).
    console.error(`[${correlationId}] ${where} failed: ${safeErrorSummary(e)}`);
    err = new AppError(500, "internal_error", `Something went wrong on our side. Reference: ${correlationId}.`);
  }
  const body = JSON.stringify(new AppError(err.status, err.code, err.message, err.param, correlationId).toBody());
  // A 429 or 503 that knows when to come back says so (a limit of ours, or the service's own Retry-After).
  const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": NO_STORE, "X-Correlation-Id": correlationId };
  if ((err.status === 429 || err.status === 503) && err.retryAfterMs !== undefined) headers["Retry-After"] = String(Math.max(1, Math.ceil(err.retryAfterMs / 1000)));
  return new Response(body, { status: err.status, headers });
}

/** The 400 of a body that stopped before its end (also the ingest's, lib/server/event-stream/delivery-body.ts). */
export function bodyCutOff(): AppError {
  return new AppError(400, "validation_error", "body: the request body was cut off.", "body");
}

/** The 413 of a body past `limit` (also the server's, ./request-body-limits.ts). */
export function tooLarge(limit: number): AppError {
  return new AppError(413, "payload_too_large", `body: the request body is larger than ${formatBytes(limit)}.`, "body");
}
