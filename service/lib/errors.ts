import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";

/** The one error type of the service; rendered as `{"error": {message, code, param}}`. */
export class ServiceError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody() {
    return { error: { message: this.message, code: this.code, param: this.param } };
  }
}

export const badRequest = (message: string, param: string | null = null, code = "validation_error") =>
  new ServiceError(400, code, message, param);
export const notFound = (what: string, param: string | null = "id") =>
  new ServiceError(404, "not_found", `${what} not found`, param);
export const forbidden = (message: string, param: string | null = null, code = "forbidden") =>
  new ServiceError(403, code, message, param);

/** The first issue of a ZodError, as the field it names and a sentence a person can act on. */
export function fromZodError(error: ZodError, prefix: string[] = []): ServiceError {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? [])].map(String);
  // An issue about the whole input (a body that is not an object) names the body.
  const param = path.length ? path.join(".") : "body";
  const message = `${param}: ${issue?.message ?? "is not valid"}`;
  return new ServiceError(400, "validation_error", message, param);
}
