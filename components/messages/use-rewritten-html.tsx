"use client";

import * as React from "react";
import type { RewrittenHtml } from "@/lib/messages/email-html";

/**
 * An email's html as the page's server render already rewrote it (rewriteEmailHtml, remote
 * images blocked): a frame showing exactly that html draws it without loading the rewriter.
 */
export type PreparedEmailHtml = { source: string; rewritten: RewrittenHtml };

const PreparedContext = React.createContext<PreparedEmailHtml | null>(null);

/** Frames inside show `value.source` from the server's rewriting; any other html, or remote images allowed, loads the rewriter. */
export function PreparedEmailHtmlProvider({ value, children }: { value: PreparedEmailHtml | undefined; children: React.ReactNode }) {
  return <PreparedContext.Provider value={value ?? null}>{children}</PreparedContext.Provider>;
}

let rewriter: Promise<typeof import("@/lib/messages/email-html")> | null = null;

/**
 * The rewriter (htmlparser2's tokenizer and its table of entities, about 30 KiB compressed),
 * loaded once, when a frame first needs it; a screen may start the download early, when the
 * html is about to change (its user edits what the preview renders).
 */
export const loadEmailRewriter = () => (rewriter ??= import("@/lib/messages/email-html"));

/**
 * The html of a frame, rewritten: the server's rewriting when it is of this html with remote
 * images blocked, otherwise the rewriter's, which suspends the frame (its placeholder shows)
 * until loaded.
 */
export function useRewrittenHtml(html: string, allowRemoteImages: boolean): RewrittenHtml {
  const prepared = React.useContext(PreparedContext);
  const ready = prepared && !allowRemoteImages && prepared.source === html ? prepared.rewritten : null;
  // `use` may be called conditionally; the promise is the same one every time, so it suspends once.
  const loaded = ready ? null : React.use(loadEmailRewriter());
  return React.useMemo(() => ready ?? loaded!.rewriteEmailHtml(html, { blockImages: !allowRemoteImages }), [ready, loaded, html, allowRemoteImages]);
}

/** The partial dark approximation's recoloured html (a second pass of the rewriter), only while `wanted`. */
export function useRecoloredHtml(html: string, allowRemoteImages: boolean, wanted: boolean): string | null {
  const loaded = wanted ? React.use(loadEmailRewriter()) : null;
  return React.useMemo(() => (loaded ? loaded.rewriteEmailHtml(html, { blockImages: !allowRemoteImages, recolor: true }).html : null), [loaded, html, allowRemoteImages]);
}
