"use client";

import * as React from "react";
import { srcDocAround } from "./email-srcdoc";
import { useRewrittenHtml } from "./use-rewritten-html";
import type { EmailFrameProps } from "./email-frame-props";

/**
 * The iframe itself, loaded on its own after the screen (email-frame.tsx): the tokenizer
 * that rewrites the html, with its table of HTML entities, stays out of every screen's first
 * load, and the server never spends its thread on a stranger's markup while rendering a page.
 * The tokenizer is a chunk of its own again (use-rewritten-html.tsx), loaded only when the
 * html was not rewritten by the page's server render already (a template's first preview).
 */
export default function SandboxedFrame({ html, allowRemoteImages = false, width = "100%", title, height = 520, className, onRemoteImages }: EmailFrameProps) {
  const rewritten = useRewrittenHtml(html, allowRemoteImages);
  const srcDoc = React.useMemo(() => srcDocAround(rewritten.html, { allowRemoteImages }), [rewritten, allowRemoteImages]);
  React.useEffect(() => {
    if (!allowRemoteImages) onRemoteImages?.(rewritten.remote);
  }, [rewritten, allowRemoteImages, onRemoteImages]);
  return (
    <iframe
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      style={{ width: typeof width === "number" ? `${width}px` : width, height, maxWidth: "100%" }}
      className={className ?? "rounded-md border bg-white"}
      data-remote-images={allowRemoteImages ? "allowed" : "blocked"}
    />
  );
}
