import { AppError } from "@/lib/errors";
import { findJsonProblem } from "@/lib/http/json-safety";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { ingestDelivery } from "@/lib/server/event-stream/ingest";
import { errorResponse, readRequestText } from "@/lib/server/route";

/**
 * The service's signed deliveries for one project. Not behind `route()`: the caller is the
 * service, not a signed-in browser — the Standard Webhooks signature is the authentication.
 * Anyone can reach it, so the body is read as a stream and refused past MAX_REQUEST_BYTES
 * without ever holding more than that.
 */
export async function POST(req: Request, ctx: { params: Promise<{ project: string }> }): Promise<Response> {
  try {
    const { project } = await ctx.params;
    // A NUL in the project would reach the database, which refuses it (a 500): refused here, unread.
    const problem = findJsonProblem({ project });
    if (problem) throw new AppError(400, "validation_error", problem.message, problem.param);
    const result = await ingestDelivery(project, await readRequestText(req, MAX_REQUEST_BYTES), req.headers);
    return new Response(result.body ? JSON.stringify(result.body) : null, {
      status: result.status,
      headers: { "Cache-Control": "no-store", ...(result.body ? { "Content-Type": "application/json" } : {}) },
    });
  } catch (e) {
    return errorResponse(e, crypto.randomUUID(), req);
  }
}
