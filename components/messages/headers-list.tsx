"use client";

import { clip, count, SHOWN_HEADER_CHARS, SHOWN_HEADERS } from "./bounds";
import { DownloadTextButton } from "./download-text-button";

/**
 * A message's headers as name and value, at most SHOWN_HEADERS of them and SHOWN_HEADER_CHARS
 * of each value (a stranger's mail may carry thousands, or one of megabytes); when anything
 * is left out, all of them are a download away.
 */
export function HeadersList({ headers, filename }: { headers: [string, string][]; filename: string }) {
  if (headers.length === 0) return <p className="text-sm text-muted-foreground">No headers recorded.</p>;
  const shown = headers.slice(0, SHOWN_HEADERS).map(([name, value]) => [clip(name, SHOWN_HEADER_CHARS), clip(value, SHOWN_HEADER_CHARS)] as const);
  const clipped = headers.length > SHOWN_HEADERS || shown.some(([n, v]) => n.omitted > 0 || v.omitted > 0);
  return (
    <div className="space-y-2">
      {clipped && (
        <div role="note" className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
          <span>
            {headers.length > SHOWN_HEADERS ? `Showing ${count(SHOWN_HEADERS)} of ${count(headers.length)} headers` : "Showing every header"}
            {shown.some(([n, v]) => n.omitted > 0 || v.omitted > 0) ? `, long ones cut at ${count(SHOWN_HEADER_CHARS)} characters.` : "."}
          </span>
          <DownloadTextButton text={headers.map(([k, v]) => `${k}: ${v}`).join("\n")} filename={filename}>
            Download all headers
          </DownloadTextButton>
        </div>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md border p-3 font-mono text-xs">
        {shown.map(([name, value], i) => (
          <div key={i} className="contents">
            <dt className="break-all text-muted-foreground">{name.shown}</dt>
            <dd className="break-all">
              {value.shown}
              {value.omitted > 0 && <span className="text-muted-foreground"> … ({count(value.omitted)} more characters)</span>}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
