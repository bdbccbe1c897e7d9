import "server-only";
import { outboundPolicy } from "@/lib/server/http/outbound";
import type { PresendRequestParsed, PresendResult, LinkCheckRequest, LinkCheckResult } from "@/lib/schemas/presend";
import { busyError, oneAtATime } from "@/lib/server/limits/one-at-a-time";
import { scoreDraft, spamdSettings } from "@/lib/server/spam/score";
import { runChecksInWorker } from "./check-pool";
import { checkReachability } from "./reachability";

/** A user's second check while the first runs is a 429: one user holds at most one worker. */
const oneCheckAtATime = oneAtATime("presend-checks", () =>
  busyError("check_in_progress", "One check at a time per user: another check of yours is still running. Wait for it to finish, then try again.", 1),
);
/** One link check per user: each opens up to LINK_CHECK_CONCURRENCY connections for up to LINK_CHECK_DEADLINE_MS. */
const oneLinkCheckAtATime = oneAtATime("link-checks", () =>
  busyError("link_check_in_progress", "One link check at a time per user: another link check of yours is still running. Wait for it to finish, then try again.", 5),
);

type Caller = { userId?: string; signal?: AbortSignal };

/**
 * The pre-send checks of a draft (in a worker thread), and SpamAssassin's score when it is
 * asked for (the message built in the worker, then sent to spamd). A user's checks run one at a time
 * (the template page's first check counts as one); without `userId` only the pool's bounds apply.
 * `request` is read with `presendRequest` by the caller (the route, the template page), so its
 * bounds hold before any work is queued.
 */
export async function presendChecks(request: PresendRequestParsed, caller: Caller = {}): Promise<PresendResult> {
  const { draft } = request;
  const work = async () => {
    const spamd = request.spam ? spamdSettings() : null;
    // The worker builds the MIME message too; spamd then scores it (network wait, on this thread).
    const { result, mime } = await runChecksInWorker({ draft, mime: spamd !== null }, caller.signal);
    if (!request.spam) return result;
    return { ...result, spam: await scoreDraft(draft, spamd, mime ? Buffer.from(mime.buffer, mime.byteOffset, mime.byteLength) : undefined) };
  };
  return caller.userId ? oneCheckAtATime(caller.userId, work) : work();
}

/** The links of a draft, followed from this server to public addresses only; one check at a time per user. */
export async function linkReachability(request: LinkCheckRequest, caller: Caller = {}): Promise<LinkCheckResult> {
  // The operator's OUTBOUND_ALLOW_* settings apply, as to every fetch of a URL someone else chose.
  const work = async () => ({ results: await checkReachability(request.urls, { policy: outboundPolicy() }) });
  return caller.userId ? oneLinkCheckAtATime(caller.userId, work) : work();
}
