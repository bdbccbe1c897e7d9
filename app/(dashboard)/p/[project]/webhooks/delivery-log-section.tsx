"use client";

import dynamic from "next/dynamic";
import { CollapsibleSection } from "@/components/common/collapsible-section";
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
    <CollapsibleSection
      id="delivery-log"
      title="What reached the event stream"
      open={open}
      onToggle={toggle}
      showLabel="Show deliveries"
      hideLabel="Hide deliveries"
      description={
        <>
          The newest 200 deliveries that arrived at the dashboard&apos;s ingest for this project, signed or not, and what was done with each, and the newest 50
          refused or unusable ones before them. Bodies are kept with addresses masked and secrets removed, cut to 4 KB.
        </>
      }
    >
      <DeliveryLogPanel project={project} canProcess={canProcess} />
    </CollapsibleSection>
  );
}
