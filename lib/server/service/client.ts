import "server-only";
import type { z } from "zod";
import { AppError, defaultCode } from "@/lib/errors";
import { env } from "../env";
import { summarizeErrorBody } from "./error-body";
import { serviceHeaders } from "./headers";
import { AnswerTooLargeError, exchange, type Answer } from "./transport";
import { serviceBase, serviceUrl } from "./url";

/**
 * The ONE client toward the email service. Nothing else calls `fetch` toward it.
 * - base URL and the account-wide key come from the environment, the key goes to that origin only;
 * - `X-Service-Product` comes from `project`, which callers take from the guard, never the browser;
 * - one deadline (`timeoutMs`) covers all attempts, so a screen never waits longer than that;
 * - 429 (honouring Retry-After) and 5xx/network failures are retried with capped exponential
 *   backoff and full jitter; a POST only when it carries an Idempotency-Key, so nothing is sent twice;
 * - headers, the key's among them, come from ./headers.ts alone;
 * - success answers are read with the tolerant readers of ./readers (any 2xx, any layout the
 *   interface allows); error answers of any layout become AppError (./error-body.ts).
 */
export type ServiceQuery = Record<string, string | number | undefined>;

export type ServiceRequest<T> = {
  method: "GET" | "POST" | "DELETE";
  /** Path under the base URL, e.g. `/v1/emails/${encodeURIComponent(id)}`. */
  path: string;
  /** External id of the project, from the guard. */
  project?: string | null;
  query?: ServiceQuery;
  body?: unknown;
  idempotencyKey?: string;
  schema: z.ZodType<T>;
  timeoutMs?: number;
};

export const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 200;
const BACKOFF_CAP_MS = 2_000;
/** A Retry-After longer than this is not waited for: the user gets the 429 with the wait stated. */
export const RETRY_AFTER_CAP_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds or an HTTP date, as RFC 9110 allows; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function backoff(attempt: number): number {
  // Full jitter: spreads retries of many callers instead of synchronising them.
  return Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/** The largest answer read from the service (attachments' bytes excepted: they are streamed). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

function asJson(text: string): { text: string; json: unknown } {
  if (!text) return { text, json: undefined };
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: undefined };
  }
}

function rateLimited(waitMs: number | null): AppError {
  const seconds = waitMs ? Math.max(1, Math.ceil(waitMs / 1000)) : null;
  const e = new AppError(
    429,
    "rate_limited",
    seconds
      ? `The email service is rate limiting requests. Try again in ${seconds} s.`
      : "The email service is rate limiting requests. Try again in a moment.",
  );
  // Background work (the re-read queue) waits as long as the service asked.
  if (waitMs !== null) e.retryAfterMs = waitMs;
  return e;
}

/**
 * An error answer of the service as the one error type. The interface leaves error bodies,
 * codes and the statuses of validation failures open, so any layout is read
 * (./error-body.ts) and 422 counts as a validation failure like 400. A 4xx message
 * reaches the user, named by its field when the service named one; a 5xx body never does,
 * and neither does a text body that is a page or a stack trace.
 */
export function errorFromResponse(status: number, json: unknown, retryAfterMs: number | null = null, text = ""): AppError {
  const said = summarizeErrorBody(json, text);
  if (status === 401) {
    return new AppError(
      502,
      "service_unauthorized",
      `The email service refused the dashboard's API key${said.message ? ` ("${said.message}")` : ""}. Check SERVICE_API_KEY.`,
    );
  }
  if (status === 429) return rateLimited(retryAfterMs);
  if (status >= 500) {
    const code = status === 503 ? "service_unavailable" : status === 504 ? "service_timeout" : "bad_gateway";
    return new AppError(status === 503 || status === 504 ? status : 502, code, defaultUpstreamMessage(status));
  }
  if (status >= 300 && status < 400) {
    return new AppError(502, "bad_gateway", "The email service answered with a redirect, which is not followed.");
  }
  const validation = status === 400 || status === 422;
  const code = said.code ?? (validation ? "invalid_request" : defaultCode(status));
  let message = said.message ?? `The email service refused the request (HTTP ${status}).`;
  if (said.param && !message.includes(said.param)) message = `${said.param}: ${message}`;
  // The service's own correlation id is not ours; ours is set by the route wrapper. A 422 is
  // passed on as 400, so every caller and screen treats the two alike.
  return new AppError(validation ? 400 : status, code, message, said.param);
}

function defaultUpstreamMessage(status: number): string {
  if (status === 503) return "The email service is unavailable right now. Try again shortly.";
  if (status === 504) return "The email service took too long to answer. Try again.";
  return "The email service failed to handle the request. Try again.";
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

function isTimeout(e: unknown): boolean {
  return e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError");
}

export async function callService<T>(opts: ServiceRequest<T>): Promise<T> {
  const e = env();
  const url = serviceUrl(opts.path, opts.query);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers = serviceHeaders({
    key: e.SERVICE_API_KEY,
    project: opts.project,
    idempotencyKey: opts.idempotencyKey,
    jsonBody: body !== undefined,
  });

  const retryable = opts.method !== "POST" || Boolean(opts.idempotencyKey);
  const deadline = Date.now() + (opts.timeoutMs ?? e.SERVICE_TIMEOUT_MS);
  // Made when a failure needs it: an Error captures its stack when made, which on every call
  // cost the message read a measurable part of its round trip (`npm run bench:gateway`).
  let lastError: AppError | null = null;
  const failure = () => lastError ?? new AppError(504, "service_timeout", defaultUpstreamMessage(504));

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw failure();
    let res: Answer;
    try {
      res = await exchange(url, { method: opts.method, headers, body, timeoutMs: remaining, maxBytes: MAX_ANSWER_BYTES, reuse: retryable });
    } catch (err) {
      if (err instanceof AnswerTooLargeError) {
        console.error(`service: ${opts.path} answered more than ${MAX_ANSWER_BYTES} bytes; the answer was not read`);
        throw new AppError(502, "bad_gateway", "The email service answered with more data than the dashboard reads.");
      }
      lastError = isTimeout(err)
        ? new AppError(504, "service_timeout", defaultUpstreamMessage(504))
        : new AppError(503, "service_unavailable", "The email service cannot be reached right now. Try again shortly.");
      if (!retryable || isTimeout(err)) throw lastError;
      const wait = backoff(attempt);
      if (Date.now() + wait >= deadline) throw lastError;
      await sleep(wait);
      continue;
    }

    const { json, text } = asJson(res.text);
    if (res.status >= 200 && res.status < 300) return parseSuccess(res.status, text, json, opts.schema, opts.path);

    const retryAfter = res.status === 429 ? parseRetryAfter(headerValue(res.headers["retry-after"])) : null;
    lastError = errorFromResponse(res.status, json, retryAfter, text);
    const transient = res.status === 429 || res.status >= 500;
    if (!transient || !retryable || attempt === MAX_ATTEMPTS - 1) throw lastError;
    if (retryAfter !== null && retryAfter > RETRY_AFTER_CAP_MS) throw lastError;
    const wait = retryAfter ?? backoff(attempt);
    if (Date.now() + wait >= deadline) throw lastError;
    await sleep(wait);
  }
  throw failure();
}

/**
 * Any 2xx is success: the interface names few success codes (201, 202, 204, 207) and leaves
 * the rest open. An empty or non-JSON body is handed to the schema as `undefined`, so an
 * operation that needs nothing back (a delete) succeeds whatever the service sent; one that
 * needs an answer fails here, with the reason logged for the operator.
 */
function parseSuccess<T>(status: number, text: string, json: unknown, schema: z.ZodType<T>, path: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // Logged for the operator; the user gets a plain message, never the upstream body.
    const issues = text && json === undefined
      ? "the body is not JSON"
      : parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`).join("; ");
    console.error(`service: ${path} answered ${status} in a shape the dashboard does not understand: ${issues}`);
    throw new AppError(502, "bad_gateway", "The email service answered in an unexpected format.");
  }
  return parsed.data;
}

/**
 * Fetches a URL the service handed out (e.g. an attachment's `url`) with the key, but only
 * when it points at the configured service origin; any other origin is refused before a
 * request is made, so the key cannot leak through a crafted response.
 */
export async function fetchServiceUrl(url: string, opts: { timeoutMs?: number } = {}): Promise<Response> {
  const e = env();
  const base = serviceBase();
  let target: URL;
  try {
    target = new URL(url, base);
  } catch {
    throw new AppError(502, "untrusted_url", "The email service returned a link that is not a valid URL.");
  }
  if (target.origin !== base.origin) {
    throw new AppError(502, "untrusted_url", "The email service returned a link to another site; it was not followed.");
  }
  let res: Response;
  try {
    res = await fetch(target, {
      headers: serviceHeaders({ key: e.SERVICE_API_KEY, acceptJson: false }),
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs ?? e.SERVICE_TIMEOUT_MS),
      cache: "no-store",
    });
  } catch (err) {
    throw isTimeout(err)
      ? new AppError(504, "service_timeout", defaultUpstreamMessage(504))
      : new AppError(503, "service_unavailable", "The email service cannot be reached right now. Try again shortly.");
  }
  if (!res.ok) {
    const { json, text } = asJson(await res.text().catch(() => ""));
    throw errorFromResponse(res.status, json, parseRetryAfter(res.headers.get("retry-after")), text);
  }
  return res;
}
