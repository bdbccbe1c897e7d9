"use client";

import { emailSrcDoc } from "./email-srcdoc";

export type EmailFrameProps = {
  /** Untrusted HTML: an inbound email, a sent body, a template preview. */
  html: string;
  /** Remote images stay blocked until the viewer asks for them (tracking pixels, privacy). */
  allowRemoteImages?: boolean;
  /** CSS width: a number of pixels (e.g. 375 for a phone preview) or any CSS length. */
  width?: number | string;
  /** Accessible name of the frame, e.g. "Email preview: Your receipt". */
  title: string;
  height?: number;
  className?: string;
};

/**
 * The one way the dashboard shows untrusted email HTML: a srcdoc iframe sandboxed without
 * `allow-scripts` and without `allow-same-origin` (so it can run nothing and read nothing of
 * ours). Popups are allowed, escaping the sandbox, only so links open in a new tab.
 */
export function EmailFrame({ html, allowRemoteImages = false, width = "100%", title, height = 520, className }: EmailFrameProps) {
  return (
    <iframe
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      referrerPolicy="no-referrer"
      srcDoc={emailSrcDoc(html, { allowRemoteImages })}
      style={{ width: typeof width === "number" ? `${width}px` : width, height, maxWidth: "100%" }}
      className={className ?? "rounded-md border bg-white"}
      data-remote-images={allowRemoteImages ? "allowed" : "blocked"}
    />
  );
}
