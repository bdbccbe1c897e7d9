"use client";

import * as React from "react";
import { Skeleton } from "@/components/ui/skeleton";
import { count, isPreviewable, MAX_PREVIEW_HTML_CHARS } from "./bounds";
import { DownloadTextButton } from "./download-text-button";
import type { EmailFrameProps } from "./email-frame-props";
import { useMounted } from "@/components/hooks/use-mounted";

const SandboxedFrame = React.lazy(() => import("./sandboxed-frame"));

/**
 * The one way the dashboard shows untrusted email HTML: a srcdoc iframe sandboxed without
 * `allow-scripts` and without `allow-same-origin` (so it can run nothing and read nothing of
 * ours). Popups are allowed, escaping the sandbox, only so links open in a new tab.
 * Html longer than MAX_PREVIEW_HTML_CHARS is not rendered (checked before any work on it):
 * a notice offers its source instead. The frame is drawn in the browser only, after the
 * screen, from a chunk of its own (sandboxed-frame.tsx); a placeholder of its size waits.
 */
export function EmailFrame(props: EmailFrameProps) {
  const mounted = useMounted();
  const { html, width = "100%", height = 520, title } = props;
  if (!isPreviewable(html)) return <OversizedHtml html={html} title={title} />;
  const placeholder = <Skeleton data-testid="email-frame-loading" style={{ width: typeof width === "number" ? `${width}px` : width, height, maxWidth: "100%" }} />;
  if (!mounted) return placeholder;
  return (
    <React.Suspense fallback={placeholder}>
      <SandboxedFrame {...props} />
    </React.Suspense>
  );
}

function OversizedHtml({ html, title }: { html: string; title: string }) {
  return (
    <div role="note" aria-label={title} className="space-y-2 rounded-md border bg-muted/50 p-3 text-sm">
      <p>
        This HTML is {count(html.length)} characters long, more than the {count(MAX_PREVIEW_HTML_CHARS)} a preview shows, so it is not rendered here: laying out that
        much of a sender&apos;s markup would hold up this tab.
      </p>
      <DownloadTextButton text={html} filename="email-source.html.txt">
        Download the HTML source
      </DownloadTextButton>
    </div>
  );
}
