import "server-only";
import { AppError } from "@/lib/errors";
import { findJsonProblem } from "@/contract/http/json-safety";
import { webBody, type BodySource } from "./delivery-body";
import { ingestStream } from "./ingest";
import { ingestErrorAnswer } from "./ingest-answer";

/**
 * The answer to one delivery, whichever way it came in: the ingest route (`ingestRoute` below)
 * and the server's fast path (./fast-path.ts) both answer with this, so the two cannot drift
 * apart — the same checks before the body is read, the same limits while it is
 * (./ingest-limits.ts), the same answers (./ingest-answer.ts). `body` opens the body only
 * when the ingest starts reading it; `path` names the request in the log of an unexpected failure.
 */
export async function ingestResponse(project: string, headers: Headers, body: () => BodySource, path: string): Promise<Response> {
  try {
    // A NUL in the project would reach the database, which refuses it (a 500): refused here, unread.
    const problem = findJsonProblem({ project });
    if (problem) throw new AppError(400, "validation_error", problem.message, problem.param);
    const result = await ingestStream(project, headers, body);
    return new Response(result.body ? JSON.stringify(result.body) : null, {
      status: result.status,
      headers: { "Cache-Control": "no-store", ...(result.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch (e) {
    return ingestErrorAnswer(e, path);
  }
}

/**
 * `POST /api/ingest/[project]`: the service's signed deliveries for one project. Not behind
 * `route()`: the caller is the service, not a signed-in browser — the Standard Webhooks
 * signature is the authentication. Anyone can reach it, so it has limits of its own, far below
 * the other routes' MAX_REQUEST_BYTES (./ingest-limits.ts), the same through either door.
 *
 * Under `next start` deliveries never get here: the fast path answers every POST under
 * /api/ingest/ before Next routes it. This serves `next dev` and the test harness that stands
 * in for the dashboard (lib/test/dashboard-on-bundled.ts).
 */
export async function ingestRoute(req: Request, ctx: { params: Promise<{ project: string }> }): Promise<Response> {
  const { project } = await ctx.params;
  return ingestResponse(project, req.headers, () => webBody(req.body), new URL(req.url).pathname);
}
