"use client";

import dynamic from "next/dynamic";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useUrlState } from "@/components/hooks/use-url-state";

/** The log itself is loaded only when opened: the screen's first load stays small. */
const DeliveryLogPanel = dynamic(() => import("./delivery-log-panel"), { ssr: false, loading: () => <Skeleton className="h-48" /> });

/**
 * What reached the event stream (issue 29): the newest deliveries that arrived at this
 * project's ingest, verified or not, and what the dashboard did with each. Opened on demand and
 * kept open in the URL (`?deliveries=1`), so a link or a reload shows it again.
 */
export function DeliveryLogSection({ project, canProcess }: { project: string; canProcess: boolean }) {
  const { get, set } = useUrlState();
  const open = get("deliveries") === "1";
  // The webhook list's page stays where it is.
  const toggle = () => set({ deliveries: open ? null : "1" }, { replace: true, keepCursor: true });
  return (
    <section aria-labelledby="delivery-log-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="delivery-log-title" className="text-base font-semibold">
          What reached the event stream
        </h2>
        <Button variant="outline" size="sm" onClick={toggle} aria-expanded={open} aria-controls="delivery-log-panel">
          {open ? "Hide deliveries" : "Show deliveries"}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">
        The newest 200 deliveries that arrived at the dashboard&apos;s ingest for this project, signed or not, and what was done with each. Bodies are kept with addresses
        masked and secrets removed, cut to 4 KB.
      </p>
      <div id="delivery-log-panel">{open && <DeliveryLogPanel project={project} canProcess={canProcess} />}</div>
    </section>
  );
}
