"use client";

import * as React from "react";
import { useMutation } from "@tanstack/react-query";
import { CircleCheckIcon, CircleXIcon, CornerDownRightIcon, LinkIcon } from "lucide-react";
import type { LinkCheckOutcome, PresendLink } from "@/lib/schemas/presend";
import { MAX_LINKS_CHECKED } from "@/lib/schemas/words";
import { presendMutations } from "@/lib/queries/presend";
import { TONE_CLASSES } from "@/components/common/status-tones";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

const KIND_LABELS: Record<PresendLink["kind"], string> = { web: "Web", mailto: "Email", tel: "Phone", variable: "Merge variable", other: "Other" };

function Outcome({ outcome }: { outcome: LinkCheckOutcome }) {
  const Icon = outcome.ok ? (outcome.location ? CornerDownRightIcon : CircleCheckIcon) : CircleXIcon;
  const text = outcome.ok ? (outcome.location ? `Redirects (${outcome.status}) to ${outcome.location}` : `Answers ${outcome.status}`) : (outcome.problem ?? "Failed");
  return (
    <span data-testid="link-outcome" data-ok={outcome.ok} className={cn("inline-flex items-start gap-1 rounded-md border px-1.5 py-0.5 text-xs break-all", TONE_CLASSES[outcome.ok ? "success" : "danger"])}>
      <Icon className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      {text}
    </span>
  );
}

/** Every link with its host; on demand, whether each web link answers, checked from the server. */
export function LinksSection({ project, links }: { project: string; links: PresendLink[] }) {
  const web = links.filter((l) => l.kind === "web" && l.host).map((l) => l.url);
  const check = useMutation({ mutationFn: () => presendMutations.checkLinks(project, web.slice(0, MAX_LINKS_CHECKED)) });
  const results = new Map((check.data?.results ?? []).map((r) => [r.url, r]));
  const failed = check.data?.results.filter((r) => !r.ok).length ?? 0;
  const headingId = React.useId();
  // A new draft brings new links: earlier results no longer describe them.
  const key = web.join("\n");
  const { reset } = check;
  React.useEffect(() => reset(), [key, reset]);

  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="flex items-center gap-1.5 text-sm font-semibold">
          <LinkIcon className="size-4" aria-hidden="true" /> Every link ({links.length})
        </h3>
        <Button type="button" variant="outline" size="sm" disabled={web.length === 0} pending={check.isPending} onClick={() => check.mutate()}>
          Check links
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        {check.data
          ? `${check.data.results.length} checked from the server: ${failed === 0 ? "all answer" : `${failed} failed`}.`
          : `"Check links" opens each web link from the server (public addresses only, the first ${MAX_LINKS_CHECKED}, 5 s each).`}
      </p>
      {check.error && <ErrorState compact title="The links could not be checked" error={check.error} onRetry={() => check.mutate()} retrying={check.isPending} />}
      {links.length === 0 ? (
        <p className="text-sm text-muted-foreground">The message has no links.</p>
      ) : (
        <div className="max-h-72 overflow-auto rounded-md border">
          <table className="w-full text-left text-xs">
            <thead className="sticky top-0 bg-muted/80 backdrop-blur">
              <tr>
                <th scope="col" className="px-2 py-1.5 font-medium">Host</th>
                <th scope="col" className="px-2 py-1.5 font-medium">Address</th>
                <th scope="col" className="px-2 py-1.5 font-medium">Kind</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">Uses</th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.url} className="border-t align-top" data-testid="link-row">
                  <td className="px-2 py-1.5 font-medium break-all">{l.host ?? "—"}</td>
                  <td className="space-y-1 px-2 py-1.5">
                    <div className="font-mono break-all" title={`Line ${l.place.line}, column ${l.place.column}`}>{l.url}</div>
                    {results.get(l.url) && <Outcome outcome={results.get(l.url)!} />}
                  </td>
                  <td className="px-2 py-1.5 whitespace-nowrap">{KIND_LABELS[l.kind]}</td>
                  <td className="px-2 py-1.5 text-right tabular-nums">{l.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
