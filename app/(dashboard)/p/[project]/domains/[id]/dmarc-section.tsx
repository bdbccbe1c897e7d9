"use client";

import dynamic from "next/dynamic";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { CollapsibleSection } from "@/components/common/collapsible-section";
import { Skeleton } from "@/components/ui/skeleton";

/** The reports' part (chart, sources, advice) is loaded only when opened: the screen's first load stays small. */
const DmarcPanel = dynamic(() => import("./dmarc-panel"), { ssr: false, loading: () => <Skeleton className="h-64" data-testid="dmarc-skeleton" /> });

/**
 * DMARC on the domain screen: the rua address to add to the DMARC record (beside the records
 * above; when this domain does not receive, the panel names a receiving one, which takes reading
 * the project's other domains, so only on opening), and the aggregate reports receivers send to it, opened on demand and kept open in
 * the URL (`?dmarc=1`), so a link or a reload shows them again.
 */
export function DmarcSection({ project, id, domain, receiving }: { project: string; id: string; domain: string; receiving: boolean }) {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const open = search.get("dmarc") === "1";
  const toggle = () => {
    const next = new URLSearchParams(search);
    if (open) next.delete("dmarc");
    else next.set("dmarc", "1");
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };
  return (
    <CollapsibleSection
      id="dmarc"
      title="DMARC reports"
      open={open}
      onToggle={toggle}
      showLabel="Show reports"
      hideLabel="Hide reports"
      description={
        <>
          Receivers send daily reports of who sends as {domain} to the address in the DMARC record&apos;s <span className="font-mono">rua</span> tag.{" "}
          {receiving ? (
            <>
              Add <span className="break-all font-mono text-foreground">rua=mailto:{`dmarc@${domain}`}</span> to it; this domain receives mail, so the reports arrive here.
            </>
          ) : (
            "The reports arrive as mail, so the address goes on a domain of this project that receives mail; open the reports to see which."
          )}
        </>
      }
    >
      <DmarcPanel project={project} id={id} />
    </CollapsibleSection>
  );
}
