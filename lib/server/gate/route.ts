import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { findJsonProblem, parseJson, type JsonProblem } from "@/contract/http/json-safety";
import { BodyTooLargeError, readBodyText } from "@/contract/http/read-body";
import type { Permission } from "@/lib/permissions";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { checkAccess, loadActorAndProject, sessionClaimsFromRequest, type Actor, type Project } from "./access";
import { withAnswerText } from "../http/answer-text";
import { bodyCutOff, errorResponse, tooLarge } from "../http/error-answer";
import { requestContext } from "../http/request-context";
import { isSameOriginWrite } from "../http/same-origin";

type Params = Record<string, string>;

/** What every handler gets. */
type BaseContext<P, U> = {
  req: NextRequest;
  params: P;
  user: U;
  correlationId: string;
};

/**
 * A route whose params have a project (`/api/p/[project]/...`) gets that project resolved,
 * decoded and checked: never null. Any other route gets none.
 */
export type ProjectScope<P> = P extends { project: string } ? { project: Project } : {};

export type RouteContext<P, U> = BaseContext<P, U> & ProjectScope<P>;
type Result = Response | object | null;
type NextContext<P> = { params: Promise<P> };
type Handler<P> = (req: NextRequest, ctx: NextContext<P>) => Promise<Response>;

/** A route's path parameters by name, each with its schema from lib/schemas/params.ts (it reads the string Next hands over). */
type ParamSchemas = Record<string, z.ZodType<unknown, string>>;
/** What a route declares of its input: its path parameters and its body, each read with its schema before the handler runs. */
export type RouteInput<S extends ParamSchemas, B extends z.ZodType | undefined> = { params?: S; body?: B };
type ParsedParams<S extends ParamSchemas> = { [K in keyof S]: z.output<S[K]> };
type BodyOf<B> = B extends z.ZodType ? { body: z.output<B> } : {};

const NO_STORE = "no-store";

/**
 * The wrapper of every route handler: same-origin check on writes, the guard (with the
 * project from `params.project` when the route has one, decoded once), and one error shape.
 * Plain objects become JSON, null becomes 204; every response is `Cache-Control: no-store`
 * and carries `X-Correlation-Id`. `permission` null means no sign-in is needed (health), and
 * then no project is read either.
 */
export function route<P extends Params = {}>(
  permission: Permission,
  fn: (ctx: RouteContext<P, Actor>) => Promise<Result>,
): Handler<P>;
export function route<P extends Params = {}>(
  permission: null,
  fn: (ctx: BaseContext<P, null>) => Promise<Result>,
): Handler<P>;
/**
 * With its input declared: after the guard, every path parameter is checked with its schema
 * (a 400 naming the parameter) and the body read (a 400 naming the field), and the handler
 * gets both typed. A `project` parameter is resolved by the guard as above.
 */
export function route<S extends ParamSchemas = {}, B extends z.ZodType | undefined = undefined>(
  permission: Permission,
  input: RouteInput<S, B>,
  fn: (ctx: RouteContext<ParsedParams<S>, Actor> & BodyOf<B>) => Promise<Result>,
): Handler<{ [K in keyof S]: string }>;
export function route<P extends Params>(
  permission: Permission | null,
  // The overloads above tie `user`, `project` and `body` to `permission` and the input; here any kind of handler is accepted.
  inputOrFn: RouteInput<ParamSchemas, z.ZodType | undefined> | ((ctx: any) => Promise<Result>), // eslint-disable-line @typescript-eslint/no-explicit-any
  handler?: (ctx: any) => Promise<Result>, // eslint-disable-line @typescript-eslint/no-explicit-any
): Handler<P> {
  const fn = typeof inputOrFn === "function" ? inputOrFn : handler!;
  const input = typeof inputOrFn === "function" ? {} : inputOrFn;
  // Built once per route, not per request.
  const paramSchema = input.params ? z.object(input.params) : null;
  return async (req, ctx) => {
    // Under `next start` the request's context (its log line) already has an id: the answer's X-Correlation-Id is that one.
    const context = requestContext();
    const correlationId = context?.requestId ?? crypto.randomUUID();
    try {
      if (!isSameOriginWrite(req)) {
        throw new AppError(403, "cross_origin", "This request did not come from the dashboard itself and was refused.");
      }
      let params = ((await ctx?.params) ?? {}) as P;
      // A NUL in an id or the project would reach the database, which refuses it with a 500.
      const paramProblem = findJsonProblem(params);
      if (paramProblem) throw validationError(paramProblem);
      let guarded: { user: Actor | null; project?: Project } = { user: null };
      if (permission) {
        // One query reads the user, their grants and the route's project.
        const claims = await sessionClaimsFromRequest(req);
        const load = (projectId?: string) => loadActorAndProject(claims, projectId);
        guarded =
          typeof params.project === "string" ? await checkAccess(load, permission, decodeParam(params.project)) : { user: (await checkAccess(load, permission)).user };
        if (context) {
          context.userId = guarded.user?.id ?? null;
          context.project = guarded.project?.externalId ?? null;
        }
      }
      // After the guard, as the body: who may not use the route learns nothing of its rules
      // (a 401 or 403 whatever the address), and the project is the guard's to resolve.
      if (paramSchema) params = { ...params, ...paramSchema.parse(params) } as P;
      const body = input.body ? { body: await parseBody(req, input.body) } : {};
      return toResponse(await fn({ req, params, correlationId, ...guarded, ...body }), correlationId);
    } catch (e) {
      // Next's own control flow (redirect(), notFound()) is not an error to report.
      unstable_rethrow(e);
      return errorResponse(e, correlationId, req);
    }
  };
}

/**
 * Next streams route responses without a length, so its gzip cannot apply its 1 KB threshold
 * and compresses even a 300-byte answer, which costs ~1 ms of zlib set-up for nothing.
 * `no-transform` (honoured by that compressor) leaves small JSON answers as they are.
 */
const COMPRESS_FROM_BYTES = 1024;

function toResponse(result: Result, correlationId: string): Response {
  let res: Response;
  let cacheControl = NO_STORE;
  if (result instanceof Response) {
    // Responses of fetch have immutable headers; a copy can take ours.
    res = new Response(result.body, result);
  } else if (result === null) {
    res = new Response(null, { status: 204 });
  } else {
    const json = JSON.stringify(result);
    const bytes = Buffer.byteLength(json);
    if (bytes < COMPRESS_FROM_BYTES) cacheControl = `${NO_STORE}, no-transform`;
    res = withAnswerText(new Response(json, { headers: { "Content-Type": "application/json", "Content-Length": String(bytes) } }), json);
  }
  res.headers.set("Cache-Control", cacheControl);
  res.headers.set("X-Correlation-Id", correlationId);
  return res;
}

/** A problem found in the input (a NUL, nesting too deep) as the 400 that names its field. */
function validationError(problem: JsonProblem): AppError {
  // A problem with the whole input (a body that is only a string holding a NUL) names the body.
  if (problem.param === null) return new AppError(400, "validation_error", problem.message.startsWith("body: ") ? problem.message : `body: ${problem.message}`, "body");
  return new AppError(400, "validation_error", problem.message, problem.param);
}

/**
 * The JSON body, validated. Read as a stream and refused past MAX_REQUEST_BYTES without
 * holding more than that (a chunked body has no length to check first). Empty body counts
 * as `{}`; bad JSON, NUL characters, too deep nesting and oversize bodies are 4xx, never 500.
 */
export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await readRequestText(req, MAX_REQUEST_BYTES);
  let json: unknown = {};
  if (text.trim()) {
    const parsed = parseJson(text);
    if (!parsed.ok) throw new AppError(400, "invalid_json", "body: the request body is not valid JSON.", "body");
    json = parsed.value;
  }
  const problem = findJsonProblem(json);
  if (problem) throw validationError(problem);
  return schema.parse(json);
}

/** The body as text, at most `limit` bytes read; more is a 413. */
export async function readRequestText(req: Request, limit: number): Promise<string> {
  try {
    return await readBodyText(req, limit);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw tooLarge(limit);
    // The stream failed: the sender went away mid-body, or was cut off for sending too slowly
    // (lib/server/http/request-body-limits.ts). The sender's doing, not a failure of ours.
    throw bodyCutOff();
  }
}

/** Query parameters, validated; a repeated key becomes an array. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.output<S> {
  const params = new URL(req.url).searchParams;
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] as string);
  }
  const problem = findJsonProblem(out);
  if (problem) throw validationError(problem);
  return schema.parse(out);
}
