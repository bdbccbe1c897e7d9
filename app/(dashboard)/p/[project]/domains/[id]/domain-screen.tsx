"use client";

import { Link } from "@/components/common/link";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { ArrowLeftIcon } from "lucide-react";
import punycode from "punycode.js";
import { domainQuery } from "@/lib/queries/domains";
import type { DomainCheck, DomainDetail } from "@/lib/schemas/domains-view";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { Skeleton } from "@/components/ui/skeleton";
import { RecordsTable } from "./records-table";
import { ZoneFileButton } from "./zone-file-button";
import { DnsCheckPanel } from "./dns-check-panel";
import { DmarcSection } from "./dmarc-section";
import { projectHref } from "@/lib/nav";

/** While pending, the service's verdict is asked again this often, so "verified" appears without a reload. */
const PENDING_REFRESH_MS = 3_000;

function unicodeName(ascii: string): string {
  try {
    return punycode.toUnicode(ascii);
  } catch {
    return ascii;
  }
}

export function DomainScreen({ project, id, initial, initialCheck }: { project: string; id: string; initial: FirstLoad<DomainDetail>; initialCheck?: Promise<DomainCheck | null> }) {
  const query = useFirstLoadQuery(
    {
      ...domainQuery(project, id),
      initialData: initial.data,
      refetchInterval: (q) => ((q.state.data?.domain.status ?? "pending") === "pending" ? PENDING_REFRESH_MS : false),
    },
    initial.error,
  );
  const back = (
    <Link href={projectHref(project, "domains")} className="inline-flex items-center gap-1 hover:underline">
      <ArrowLeftIcon className="size-3" aria-hidden="true" /> Domains
    </Link>
  );
  if (!query.data) {
    return query.error ? (
      <div className="space-y-4">
        {back}
        <ErrorState title="The domain could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      </div>
    ) : (
      <Skeleton className="h-64" />
    );
  }
  const { domain, receiving, receivingError } = query.data;
  const status = domain.status ?? "pending";
  const unicode = unicodeName(domain.domain);
  const allRecords = [...domain.records, ...(receiving?.records ?? [])];

  return (
    <div className="space-y-8">
      <PageHeader
        eyebrow={back}
        title={
          <span className="inline-flex items-center gap-3">
            {unicode}
            <StatusBadge status={status} className="text-sm" />
          </span>
        }
        description={
          <>
            {unicode !== domain.domain && <span className="mr-1 font-mono">{domain.domain} ·</span>}
            Added <RelativeTime value={domain.createdAt} />.{" "}
            {status === "pending" && "Publish the records below in your DNS panel; this page notices by itself when the domain is verified."}
            {status === "verified" && "Mail from this domain is accepted."}
            {status === "failed" && "The records were not found in time. Fix them below, then add the domain again."}
            {!["pending", "verified", "failed"].includes(status) && `The email service reports “${status}” for this domain; the records below show what it has checked.`}
          </>
        }
        actions={<ZoneFileButton domain={domain.domain} records={allRecords} />}
      />
      <section aria-labelledby="sending-title" className="space-y-3">
        <h2 id="sending-title" className="text-base font-semibold">
          Sending records
        </h2>
        <p className="text-sm text-muted-foreground">
          Enter the short host in your DNS panel (most panels add <span className="font-mono">{domain.domain}</span> themselves); the full name is below it.
        </p>
        <RecordsTable domain={domain.domain} records={domain.records} label="Sending DNS records" />
      </section>
      <section aria-labelledby="receiving-title" className="space-y-3">
        <h2 id="receiving-title" className="flex items-center gap-2 text-base font-semibold">
          Receiving
          {receiving && <StatusBadge status={receiving.enabled ? "verified" : "pending"} label={receiving.enabled ? "Enabled" : "Not enabled"} />}
        </h2>
        {receivingError ? (
          <ErrorState compact title="The receiving state could not be read" error={new Error(receivingError)} onRetry={() => query.refetch()} />
        ) : receiving && receiving.records.length > 0 ? (
          <>
            <p className="text-sm text-muted-foreground">To receive mail at this domain, publish these MX records; receiving turns on once they are found.</p>
            <RecordsTable domain={domain.domain} records={receiving.records} label="Receiving DNS records" />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">The service lists no receiving records for this domain.</p>
        )}
      </section>
      <DmarcSection project={project} id={id} domain={domain.domain} receiving={receiving?.enabled ?? false} />
      <DnsCheckPanel project={project} id={id} pending={status === "pending"} initial={initialCheck} />
    </div>
  );
}
