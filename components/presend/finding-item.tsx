import { ExternalLinkIcon } from "lucide-react";
import type { Finding } from "@/lib/schemas/presend";
import { SeverityBadge } from "./severity";

/** One finding: its severity, its sentence, and where it is in the html. */
export function FindingItem({ finding }: { finding: Finding }) {
  const { place, count } = finding;
  return (
    <li data-testid="finding" data-rule={finding.rule} data-severity={finding.severity} className="space-y-1 py-2">
      <div className="flex items-start gap-2">
        <SeverityBadge severity={finding.severity} className="mt-0.5" />
        <p className="text-sm">{finding.message}</p>
      </div>
      {place && (
        <p className="ml-[4.5rem] text-xs text-muted-foreground" data-testid="finding-place">
          Line {place.line}, column {place.column}
          {count && count > 1 ? ` (first of ${count} places)` : ""}
          {": "}
          <code className="rounded bg-muted px-1 py-0.5 font-mono break-all text-foreground">{place.excerpt}</code>
          {place.path ? <span className="ml-1 font-mono">· {place.path}</span> : null}
        </p>
      )}
      {!place && count && count > 1 ? <p className="ml-[4.5rem] text-xs text-muted-foreground">{count} places</p> : null}
      {(finding.notes?.length || finding.url) && (
        <details className="ml-[4.5rem] text-xs text-muted-foreground">
          <summary className="cursor-pointer select-none">Details</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-4">
            {finding.notes?.map((n) => <li key={n}>{n}</li>)}
          </ul>
          {finding.url && (
            <a href={finding.url} target="_blank" rel="noreferrer" className="mt-1 inline-flex items-center gap-1 underline underline-offset-4">
              This feature on caniemail.com <ExternalLinkIcon className="size-3" aria-hidden="true" />
            </a>
          )}
        </details>
      )}
    </li>
  );
}
