import { ExternalLinkIcon, MousePointerClickIcon } from "lucide-react";
import type { TopLink } from "@/lib/schemas/overview";
import { EmptyState } from "@/components/common/empty-state";
import { CountCell, ListTable, numberColumn } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";

/** "What do people click?": the links clicked most in the period's messages. */
export function OverviewLinks({ links, period }: { links: TopLink[]; period: string }) {
  return (
    <section className="space-y-2" aria-labelledby="top-links-title">
      <div>
        <h2 id="top-links-title" className="text-base font-semibold">
          Top clicked links
        </h2>
        <p className="text-sm text-muted-foreground">
          {period}, from the click events of the messages. Links are grouped without their query string, so tracking parameters and personal tokens add up to one link.
        </p>
      </div>
      {links.length === 0 ? (
        <EmptyState
          icon={MousePointerClickIcon}
          title="No clicks in this period"
          description="When recipients click a link and the service reports it (a click event), the link appears here with how many people clicked it."
        />
      ) : (
        <ListTable
          label="Clicked links, most clicked first"
          columns={[
            "Link",
            numberColumn("Unique clicks", "Different recipients who clicked it"),
            numberColumn("Messages", "Messages in which it was clicked at least once"),
          ]}
        >
          {links.map((l) => (
            <TableRow key={l.link} data-link={l.link}>
              <TableCell className="max-w-[36rem]">
                <a href={l.link} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex max-w-full items-center gap-1 underline-offset-4 hover:underline">
                  <span className="truncate">{l.link.replace(/^https?:\/\//, "")}</span>
                  <ExternalLinkIcon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>
              </TableCell>
              <CountCell metric="unique" value={l.uniqueClicks} />
              <CountCell metric="messages" value={l.messages} />
            </TableRow>
          ))}
        </ListTable>
      )}
    </section>
  );
}
