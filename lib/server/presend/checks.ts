import "server-only";
import { outboundPolicy } from "@/lib/server/outbound";
import { runChecks } from "@/lib/presend";
import { presendDraft, type PresendRequest, type PresendResult, type LinkCheckRequest, type LinkCheckResult } from "@/lib/schemas/presend";
import { scoreDraft } from "@/lib/server/spam";
import { checkReachability } from "./reachability";

/** The pre-send checks of a draft, and SpamAssassin's score when it is asked for (run alongside). */
export async function presendChecks(request: { draft: PresendRequest["draft"]; spam: boolean }): Promise<PresendResult> {
  const draft = presendDraft.parse(request.draft);
  const spam = request.spam ? scoreDraft(draft) : undefined;
  const result = runChecks(draft);
  return { ...result, ...(spam ? { spam: await spam } : {}) };
}

/** The links of a draft, followed from this server to public addresses only. */
export async function linkReachability(request: LinkCheckRequest): Promise<LinkCheckResult> {
  // The operator's OUTBOUND_ALLOW_* settings apply, as to every fetch of a URL someone else chose.
  return { results: await checkReachability(request.urls, { policy: outboundPolicy() }) };
}
