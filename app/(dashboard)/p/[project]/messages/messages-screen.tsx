"use client";

import { Link } from "@/components/common/link";
import { InboxIcon, MailSearchIcon } from "lucide-react";
import type { PlainAppError } from "@/lib/errors";
import type { MessageListPage } from "@/lib/schemas/messages-index";
import type { SearchProblem } from "@/lib/messages/search-query/terms";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { TimelineResults } from "@/components/common/timeline-results";
import { Button } from "@/components/ui/button";
import { useUrlState } from "@/components/hooks/use-url-state";
import { MessagesTable } from "@/components/messages/messages-table";
import { ExportMenu } from "@/components/export/export-menu";
import { EventStreamNotice } from "./event-stream-notice";
import { MessagesFilters } from "./messages-filters";
import { SavedViewsButton } from "./saved-views-button";
import type { MessageFilters } from "./messages-params";

export function MessagesScreen({
  project,
  page,
  problems,
  error,
  filters,
  invalid,
  stream,
  canConnect,
  canSimulate,
}: {
  project: string;
  page: MessageListPage | null;
  problems: SearchProblem[];
  error: PlainAppError | null;
  filters: MessageFilters;
  invalid: { param: string; message: string }[];
  stream: { connected: boolean };
  canConnect: boolean;
  canSimulate: boolean;
}) {
  const url = useUrlState();
  const filtered = Object.entries(filters).some(([k, v]) => k !== "cursor" && v);
  const rows = page?.data ?? [];
  const simulateHref = `/p/${encodeURIComponent(project)}/inbound/simulate`;

  return (
    <div className="space-y-5">
      <PageHeader
        title="Messages"
        description="Everything this project sent through the dashboard and every message its event stream reported, newest first. Search with terms such as to:, tag:, status: or after:7d; paste a message id to open it."
        actions={
          <>
            <ExportMenu path={`/api/p/${encodeURIComponent(project)}/messages/export`} query={{ ...filters, cursor: null }} />
            {canSimulate && (
              <Button variant="outline" asChild>
                <Link href={simulateHref}>
                  <InboxIcon aria-hidden="true" />
                  Simulate inbound
                </Link>
              </Button>
            )}
          </>
        }
      />
      {!stream.connected && <EventStreamNotice project={project} canConnect={canConnect} />}
      <MessagesFilters filters={filters} set={url.set} q={url.get("q") ?? ""} problems={problems} beside={<SavedViewsButton project={project} />} />
      <TimelineResults
        url={url}
        failure="The messages could not be loaded"
        error={error}
        invalid={invalid}
        cursor={filters.cursor}
        next={page?.nextCursor}
        pager={{ label: "Message pages", next: "Older messages" }}
      >
        {rows.length === 0 ? (
          <EmptyState
            icon={MailSearchIcon}
            title={filtered ? "No message matches this search" : "No messages yet"}
            description={
              filtered
                ? "Check the address, widen the date range or clear a filter. A message id the service knows opens directly."
                : "Messages sent from the dashboard and the ones the event stream reports appear here."
            }
            action={
              filtered ? (
                <Button variant="outline" onClick={() => url.set({ q: null, status: null, direction: null, tag: null, from: null, to: null })}>
                  Clear search and filters
                </Button>
              ) : (
                <Button variant="outline" asChild>
                  <Link href={`/p/${encodeURIComponent(project)}/compose`}>Compose a message</Link>
                </Button>
              )
            }
          />
        ) : (
          <MessagesTable project={project} rows={rows} />
        )}
      </TimelineResults>
    </div>
  );
}
