import "server-only";
import type { PresendDraftParsed, SpamResult } from "@/lib/schemas/presend";
import { env } from "@/lib/server/env";
import { buildMessage } from "./message";
import { explain, parseReport } from "./report";
import { parseSpamHeader, spamdRequest, type SpamdOptions } from "./spamd";

export const HOW_TO_ENABLE =
  "Install Debian's spamassassin and spamd packages, start spamd on this machine (for example `spamd -L -x -u nobody -i 127.0.0.1:783 -A 127.0.0.1`), then set SPAMD_HOST=127.0.0.1 and SPAMD_PORT=783 for the dashboard and restart it.";

/** Where spamd listens, from SPAMD_HOST / SPAMD_PORT; null when SpamAssassin is not configured. */
export function spamdSettings(): SpamdOptions | null {
  const e = env();
  return e.SPAMD_HOST ? { host: e.SPAMD_HOST, port: e.SPAMD_PORT, timeoutMs: e.SPAMD_TIMEOUT_MS } : null;
}

/**
 * SpamAssassin's score of the draft and every rule it hit, each explained. Never throws:
 * an unconfigured or unreachable spamd is a result the panel shows, not a failed check.
 * `message`: the draft already built as MIME (the pre-send checks build it in their worker).
 */
export async function scoreDraft(draft: PresendDraftParsed, settings: SpamdOptions | null = spamdSettings(), message?: Buffer): Promise<SpamResult> {
  if (!settings) return { unavailable: "SpamAssassin is not configured, so there is no spam score.", howToEnable: HOW_TO_ENABLE };
  try {
    const response = await spamdRequest("REPORT", message ?? (await buildMessage(draft)), settings);
    if (response.code !== 0) return { unavailable: `SpamAssassin refused the check: ${response.message} (code ${response.code}).` };
    const verdict = parseSpamHeader(response.headers.spam);
    if (!verdict) return { unavailable: "SpamAssassin answered without a score." };
    const rules = parseReport(response.body)
      .map((rule) => ({ ...rule, explanation: explain(rule) }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return { ...verdict, rules };
  } catch (e) {
    console.warn(`[spam] ${(e as Error).message}`);
    return { unavailable: `SpamAssassin could not be reached: ${(e as Error).message}.` };
  }
}
