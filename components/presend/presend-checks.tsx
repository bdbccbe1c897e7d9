"use client";

import * as React from "react";
import type { PresendDraft, PresendResult } from "@/lib/schemas/presend";
import { Skeleton } from "@/components/ui/skeleton";
import { useMounted } from "@/components/hooks/use-mounted";

function Loading() {
  return (
    <div className="space-y-3 rounded-lg border bg-card p-4" aria-hidden="true" data-testid="checks-skeleton">
      <Skeleton className="h-5 w-40" />
      <Skeleton className="h-4 w-full" />
      <Skeleton className="h-4 w-2/3" />
    </div>
  );
}

/**
 * The pre-send checks panel, loaded on its own after the screen: its code (and the query,
 * links and spam parts) stays out of the first load of the screens that show it. `initial`:
 * the checks of this draft, from the page shell, so the panel neither asks for them nor
 * loads the answer's parser until the draft changes. Drawn in the browser only, with
 * React.lazy rather than next/dynamic, whose loader was the only one on these screens
 * (about 1.3 KiB of their first load).
 */
const ChecksPanel = React.lazy(() => import("./checks-panel"));

export function PresendChecks(props: { project: string; draft: PresendDraft | null; title?: string; initial?: Promise<PresendResult | null> }) {
  const mounted = useMounted();
  if (!mounted) return <Loading />;
  return (
    <React.Suspense fallback={<Loading />}>
      <ChecksPanel {...props} />
    </React.Suspense>
  );
}
