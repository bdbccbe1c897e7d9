import type { MiddlewareHandler } from "hono";
import { findJsonProblem, parseJson } from "../../contract/http/json-safety";
import { BodyTooLargeError, formatBytes, readBodyBytes } from "../../contract/http/read-body";
import type { AppEnv } from "../context";
import { ServiceError } from "./errors";

/**
 * Input the schemas cannot see, refused before a route runs, each as a 400 naming its field
 * (or a 413): a body past the size limit (read as a stream and cut off there, never
 * collected whole), malformed JSON, a NUL character anywhere in the JSON or the query or a
 * path parameter (Postgres refuses NUL, which was a 500), nesting too deep, and a path
 * parameter whose percent-encoding does not decode.
 */

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

export function bodyGuard(limit: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.req.raw.body) return next();
    let bytes: Uint8Array;
    try {
      bytes = await readBodyBytes(c.req.raw, limit);
    } catch (e) {
      if (e instanceof BodyTooLargeError) throw new ServiceError(413, "payload_too_large", `body: the request body exceeds ${formatBytes(limit)}`, "body");
      throw e;
    }
    const text = new TextDecoder().decode(bytes);
    // Later readers (the validators) get the text already read instead of the spent stream.
    // (Hono keeps promises in this cache although its type names the plain value.)
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    const media = (c.req.header("content-type") ?? "").split(";")[0].trim();
    if (JSON_MEDIA.test(media) && text.trim()) {
      const parsed = parseJson(text);
      if (!parsed.ok) throw new ServiceError(400, "invalid_json", "body: the request body is not valid JSON", "body");
      const problem = findJsonProblem(parsed.value);
      if (problem) throw new ServiceError(400, "validation_error", problem.param ? problem.message : `body: ${problem.message.replace(/^body: /, "")}`, problem.param ?? "body");
    }
    return next();
  };
}

type Pattern = { segments: string[] };

/** `/v1/emails/{id}/attachments/{attachmentId}` → its segments, `{name}` marking a parameter. */
const toPattern = (path: string): Pattern => ({ segments: path.split("/") });

function paramNameAt(patterns: Pattern[], raw: string[], index: number): string {
  for (const p of patterns) {
    if (p.segments.length !== raw.length) continue;
    const matches = p.segments.every((s, i) => s.startsWith("{") || s === raw[i]);
    const name = p.segments[index];
    if (matches && name?.startsWith("{")) return name.slice(1, -1);
  }
  return "path";
}

/** `routes()` lists the app's route paths; read on first use, once every route is registered. */
export function urlGuard(routes: () => string[]): MiddlewareHandler<AppEnv> {
  let patterns: Pattern[] | null = null;
  return async (c, next) => {
    const url = new URL(c.req.url);
    const raw = url.pathname.split("/");
    for (let i = 0; i < raw.length; i++) {
      if (!raw[i].includes("%")) continue;
      let decoded: string | null;
      try {
        decoded = decodeURIComponent(raw[i]);
      } catch {
        decoded = null;
      }
      if (decoded === null || decoded.includes("\u0000")) {
        patterns ??= routes().map(toPattern);
        const name = paramNameAt(patterns, raw, i);
        const why = decoded === null ? "is not valid percent-encoding" : "must not contain a NUL character (%00)";
        throw new ServiceError(400, "validation_error", `${name}: ${why}`, name);
      }
    }
    for (const [key, value] of url.searchParams) {
      if (key.includes("\u0000") || value.includes("\u0000")) {
        const name = key.replace(/\u0000/g, "\\u0000") || "query";
        throw new ServiceError(400, "validation_error", `${name}: must not contain a NUL character (%00)`, name);
      }
    }
    return next();
  };
}
