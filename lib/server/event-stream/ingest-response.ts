import "server-only";
import { AppError } from "@/lib/errors";
import { findJsonProblem } from "@/lib/http/json-safety";
import { errorResponse } from "@/lib/server/route";
import { ingestDelivery } from "./ingest";

/**
 * The answer to one delivery, whichever way it came in: the ingest route
 * (app/api/ingest/[project]/route.ts) and the server's fast path (./fast-path.ts) both answer
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
