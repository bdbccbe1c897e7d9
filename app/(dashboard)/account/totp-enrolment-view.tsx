"use client";

import type { TotpEnrolment } from "@/lib/schemas/two-factor";
import { CopyButton } from "@/components/common/copy-button";

/** The key in groups of four, as apps' manual entry shows it. */
export function groupKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

/**
 * The QR code (drawn from the server's path: no HTML from the answer reaches the page) and the
 * key for typing in. Always black on white, whatever the theme: cameras read it best so.
 */
export function TotpEnrolmentView({ enrolment }: { enrolment: TotpEnrolment }) {
  const size = enrolment.qrSize;
  return (
    <div className="grid justify-items-center gap-3">
      <svg viewBox={`0 0 ${size} ${size}`} className="size-48 rounded-md border" role="img" aria-label="QR code for your authenticator app" shapeRendering="crispEdges">
        <rect width={size} height={size} fill="#fff" />
        <path d={enrolment.qrPath} fill="#000" />
      </svg>
      <div className="grid w-full gap-1 text-center">
        <p className="text-xs text-muted-foreground">Or enter this key</p>
        <div className="flex flex-wrap items-center justify-center gap-2">
          <code className="rounded bg-muted px-2 py-1 font-mono text-sm break-all" data-totp-key="">
            {groupKey(enrolment.secret)}
          </code>
          <CopyButton value={enrolment.secret} label="key" />
        </div>
      </div>
    </div>
  );
}
