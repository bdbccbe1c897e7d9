/**
 * Error answers. Where the interface leaves the body and status of errors open, the
 * contrarian answers RFC 9457 problem documents (application/problem+json) for request
 * problems, 422 for validation, and plain text for authentication, rate limiting, unknown
 * routes and unreadable bodies.
 */
export interface FieldProblem {
  /** Path of the field in JSON-ish notation: `to[0].email`, `X-Service-Product`. */
  field: string;
  message: string;
}

const TYPE_BASE = "https://contrarian.invalid/problems/";

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldProblem[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toResponse(): Response {
    const body: Record<string, unknown> = { type: `${TYPE_BASE}${this.kind}`, title: this.title, status: this.status, detail: this.detail };
    if (this.errors.length) body.errors = this.errors;
    return new Response(JSON.stringify(body), {
      status: this.status,
      headers: { "Content-Type": "application/problem+json", ...this.headers },
    });
  }
}

/** A text/plain answer: what the contrarian says when there is nothing structured to say. */
export class TextProblem extends Error {
  constructor(
    readonly status: number,
    readonly text: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(text);
  }

  toResponse(): Response {
    return new Response(this.text, { status: this.status, headers: { "Content-Type": "text/plain; charset=utf-8", ...this.headers } });
  }
}

export const invalid = (errors: FieldProblem[], detail = "Some fields are not valid.") =>
  new Problem(422, "validation", "Your request parameters didn't validate.", `${detail} ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`.trim(), errors);

export const notFound = (what: string) => new Problem(404, "not-found", "Not Found", `${what} does not exist or is out of this key's reach.`);

export const conflict = (field: string, message: string) => new Problem(409, "conflict", "Conflict", `${field}: ${message}`, [{ field, message }]);

export const forbiddenText = (text: string) => new TextProblem(403, text);

/** Field path as the contrarian writes it: `to[0].email`. */
export function fieldPath(path: readonly PropertyKey[], prefix = ""): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "body";
}
