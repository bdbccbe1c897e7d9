"use client";

import * as React from "react";
import { effectiveScheme } from "./email-scheme";
import { srcDocAround } from "./email-srcdoc";
import { useRecoloredHtml, useRewrittenHtml } from "./use-rewritten-html";
import type { EmailFrameProps } from "./email-frame-props";

/**
 * The iframe itself, loaded on its own after the screen (email-frame.tsx): the tokenizer
 * that rewrites the html, with its table of HTML entities, stays out of every screen's first
 * load, and the server never spends its thread on a stranger's markup while rendering a page.
 * The tokenizer is a chunk of its own again (use-rewritten-html.tsx), loaded only when the
 * html was not rewritten by the page's server render already (a template's first preview).
 * Dark mode comes from CSS alone, never a script: the iframe element's `color-scheme` is what
 * `prefers-color-scheme` matches inside the frame, and the srcdoc's styles do the rest.
 */
export default function SandboxedFrame({ html, allowRemoteImages = false, width = "100%", title, height = 520, className, onRemoteImages, scheme = "light", onDarkStyles }: EmailFrameProps) {
  const rewritten = useRewrittenHtml(html, allowRemoteImages);
  const shown = effectiveScheme(scheme, rewritten.darkStyles);
  // The partial approximation recolours the html itself: a second pass, only while it is shown.
  const recolored = useRecoloredHtml(html, allowRemoteImages, shown === "partial");
  const body = recolored ?? rewritten.html;
  const srcDoc = React.useMemo(() => srcDocAround(body, { allowRemoteImages, scheme: shown, colorScheme: rewritten.colorScheme }), [body, allowRemoteImages, shown, rewritten]);
  React.useEffect(() => {
    if (!allowRemoteImages) onRemoteImages?.(rewritten.remote);
  }, [rewritten, allowRemoteImages, onRemoteImages]);
  React.useEffect(() => {
    onDarkStyles?.(rewritten.darkStyles);
  }, [rewritten, onDarkStyles]);
  const light = shown === "light";
  return (
    <iframe
      // A new frame when the scheme flips between light and dark: Chromium (156) gives a document
      // loaded into an existing frame the scheme the frame had before, so changing the srcdoc
      // and the color-scheme together left the new document's prefers-color-scheme stale.
      key={light ? "light" : "dark"}
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={srcDoc}
      style={{ width: typeof width === "number" ? `${width}px` : width, height, maxWidth: "100%", colorScheme: light ? "light" : "dark" }}
      className={className ?? `rounded-md border ${light ? "bg-white" : "bg-neutral-900"}`}
      data-remote-images={allowRemoteImages ? "allowed" : "blocked"}
      data-scheme={shown}
    />
  );
}
