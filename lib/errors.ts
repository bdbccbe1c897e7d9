/**
 * The one error type of the dashboard, shared by server and browser (no server-only
 * import). The service client throws it, the guard throws it, route handlers serialise it
 * as `{ error: { message, code, param, correlationId } }`, and browser code parses that
 * same body back into an AppError with `appErrorFromBody`.
 */
export class AppError extends Error {
  status: number;
  code: string;
  param: string | null;
  correlationId?: string;
  /** On a 429 from the email service: how long its Retry-After asked to wait, when it said. */
  retryAfterMs?: number;

  constructor(status: number, code: string, message: string, param: string | null = null, correlationId?: string) {
    super(message);
    this.name = "AppError";
    this.status = status;
    this.code = code;
    this.param = param;
    if (correlationId) this.correlationId = correlationId;
  }

  toBody(): { error: { message: string; code: string; param: string | null; correlationId?: string } } {
    return {
      error: {
        message: this.message,
        code: this.code,
        param: this.param,
        ...(this.correlationId ? { correlationId: this.correlationId } : {}),
      },
    };
  }
}

/**
 * An AppError as plain data, for a server component to hand a client one (a class instance
 * cannot cross that boundary). `isAppError` still recognises it.
 */
export type PlainAppError = { name: "AppError"; status: number; code: string; message: string; param: string | null; correlationId?: string };

export function toPlain(e: AppError): PlainAppError {
  return { name: "AppError", status: e.status, code: e.code, message: e.message, param: e.param, ...(e.correlationId ? { correlationId: e.correlationId } : {}) };
}

/** Structural check too: an AppError from another bundle (instrumentation, proxy) still counts. */
export function isAppError(e: unknown): e is AppError {
  if (e instanceof AppError) return true;
  return (
    typeof e === "object" &&
    e !== null &&
    (e as { name?: unknown }).name === "AppError" &&
    typeof (e as { status?: unknown }).status === "number" &&
    typeof (e as { code?: unknown }).code === "string"
  );
}

function str(v: unknown): string | null {
  return typeof v === "string" && v.length > 0 ? v : null;
}

/**
 * Turns any error body into an AppError: `{error:{message,code,param}}`, `{message,code}`,
 * `{error:"text"}`, plain text or nothing. `fallbackMessage` is used when the body says nothing
 * useful, so a caller decides what the user reads rather than an unknown upstream.
 */
export function appErrorFromBody(status: number, body: unknown, fallbackMessage?: string): AppError {
  let message: string | null = null;
  let code: string | null = null;
  let param: string | null = null;
  let correlationId: string | null = null;
  if (typeof body === "object" && body !== null) {
    const outer = body as Record<string, unknown>;
    const inner =
      typeof outer.error === "object" && outer.error !== null ? (outer.error as Record<string, unknown>) : outer;
    message = str(inner.message) ?? str(outer.error) ?? str(outer.message);
    code = str(inner.code) ?? str(outer.code);
    param = str(inner.param) ?? str(outer.param);
    correlationId = str(inner.correlationId) ?? str(outer.correlationId);
  }
  return new AppError(
    status,
    code ?? defaultCode(status),
    message ?? fallbackMessage ?? defaultMessage(status),
    param,
    correlationId ?? undefined,
  );
}

/** For browser code: a failed `fetch` response of our own API into an AppError. */
export async function appErrorFromResponse(res: Response): Promise<AppError> {
  let body: unknown = null;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  const err = appErrorFromBody(res.status, body);
  if (!err.correlationId) {
    const header = res.headers.get("x-correlation-id");
    if (header) err.correlationId = header;
  }
  return err;
}

/** What a status says where the answer gives no code or message of its own (one row a status; no message: the generic one). */
const STATUS_DEFAULTS: Record<number, { code: string; message?: string }> = {
  400: { code: "invalid_request", message: "The request is not valid." },
  401: { code: "unauthorized", message: "Sign in to continue." },
  403: { code: "forbidden", message: "You do not have permission to do this." },
  404: { code: "not_found", message: "Not found." },
  409: { code: "conflict", message: "This conflicts with the current state." },
  413: { code: "payload_too_large" },
  422: { code: "unprocessable" },
  429: { code: "rate_limited", message: "Too many requests. Try again in a moment." },
  502: { code: "bad_gateway", message: "The email service answered unexpectedly. Try again." },
  503: { code: "service_unavailable", message: "The email service cannot be reached right now. Try again shortly." },
  504: { code: "service_timeout", message: "The email service took too long to answer. Try again." },
};

export function defaultCode(status: number): string {
  return STATUS_DEFAULTS[status]?.code ?? (status >= 500 ? "internal_error" : "request_failed");
}

export function defaultMessage(status: number): string {
  const message = STATUS_DEFAULTS[status]?.message;
  if (message) return message;
  if (status >= 500) return "Something went wrong on our side. Try again.";
  return `The request failed (HTTP ${status}).`;
}
