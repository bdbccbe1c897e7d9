"use client";

import { clip, count, SHOWN_TEXT_CHARS } from "./bounds";
import { DownloadTextButton } from "./download-text-button";

/**
 * Text of an email (its plain-text body, its html source) in a scrolling box, at most
 * SHOWN_TEXT_CHARS of it; the whole stays a download away. Long lines wrap anywhere, so one
 * line of a million characters is laid out as many short ones.
 */
export function BoundedText({ text, filename, label }: { text: string; filename: string; label: string }) {
  const { shown, omitted } = clip(text, SHOWN_TEXT_CHARS);
  return (
    <div className="space-y-2">
      {omitted > 0 && (
        <div role="note" className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
          <span>
            Showing the first {count(shown.length)} of {count(text.length)} characters.
          </span>
          <DownloadTextButton text={text} filename={filename}>
            Download all
          </DownloadTextButton>
        </div>
      )}
      {/* Focusable, so the box scrolls from the keyboard too. */}
      <pre tabIndex={0} aria-label={label} className="max-h-[32rem] overflow-auto rounded-md border bg-muted/30 p-3 font-mono text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">{shown}</pre>
    </div>
  );
}
