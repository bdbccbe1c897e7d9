import "server-only";
import { AppError } from "@/lib/errors";
import { findJsonProblem } from "@/lib/http/json-safety";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { errorResponse, readRequestText } from "@/lib/server/route";
import { ingestDelivery } from "./ingest";

/**
 * The answer to one delivery, whichever way it came in: the ingest route (`ingestRoute` below)
 * and the server's fast path (./fast-path.ts) both answer
 * with this, so the two cannot drift apart. `readBody` reads the body under the size limit;
 * `request` names the request in the log of an unexpected failure.
 */
export async function ingestResponse(project: string, readBody: () => Promise<string>, headers: Headers, request?: () => Request): Promise<Response> {
  try {
    // A NUL in the project would reach the database, which refuses it (a 500): refused here, unread.
    const problem = findJsonProblem({ project });
    if (problem) throw new AppError(400, "validation_error", problem.message, problem.param);
    const result = await ingestDelivery(project, await readBody(), headers);
    return new Response(result.body ? JSON.stringify(result.body) : null, {
      status: result.status,
      headers: { "Cache-Control": "no-store", ...(result.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch (e) {
    return errorResponse(e, crypto.randomUUID(), request?.());
  }
}

/**
 * `POST /api/ingest/[project]`: the service's signed deliveries for one project. Not behind
 * `route()`: the caller is the service, not a signed-in browser — the Standard Webhooks
 * signature is the authentication. Anyone can reach it, so the body is read as a stream and
 * refused past MAX_REQUEST_BYTES without ever holding more than that.
 *
 * Under `next start` most deliveries never get here: the fast path answers them before Next
 * routes the request. This serves whatever the fast path leaves to Next (`next dev`, unusual
 * paths), and the test harness that stands in for the dashboard (lib/test/dashboard-on-bundled.ts).
 */
export async function ingestRoute(req: Request, ctx: { params: Promise<{ project: string }> }): Promise<Response> {
  const { project } = await ctx.params;
  return ingestResponse(project, () => readRequestText(req, MAX_REQUEST_BYTES), req.headers, () => req);
}
