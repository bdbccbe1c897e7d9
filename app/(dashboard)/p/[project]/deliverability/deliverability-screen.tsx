"use client";

import Link from "next/link";
import { keepPreviousData } from "@tanstack/react-query";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { FlagIcon, MailIcon } from "lucide-react";
import type { DeliverabilityData } from "@/lib/schemas/deliverability";
import { PROVIDERS } from "@/lib/insight/providers";
import { deliverabilityQuery } from "@/lib/queries/insight";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { EmptyState } from "@/components/common/empty-state";
import { Button } from "@/components/ui/button";
import { PeriodPicker } from "@/components/insight/period-picker";
import { RANGE_LABELS, rangeFrom } from "@/lib/insight/ranges";
import { useUrlState } from "@/components/hooks/use-url-state";
import { projectHref } from "@/lib/nav";
import { ProviderTable } from "./provider-table";
import { ProviderChart } from "./provider-chart";

/** "Where is our mail failing?": the period's outcomes per mailbox provider, against the thresholds. */
export function DeliverabilityScreen({ project, initial }: { project: string; initial: FirstLoad<DeliverabilityData> }) {
  const { get, set } = useUrlState();
  const range = rangeFrom(get("range"));
  const query = useFirstLoadQuery({ ...deliverabilityQuery(project, range), initialData: initial.data?.range === range ? initial.data : undefined, placeholderData: keepPreviousData }, initial.error);
  const data = query.data;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Deliverability"
        description="How each mailbox provider takes this project's mail: consumer domains by name (gmail.com, outlook.com…), company domains by where their MX records point (Google Workspace, Microsoft 365…)."
        actions={<PeriodPicker value={range} onChange={(r) => set({ range: r === "7d" ? null : r })} />}
      />
      {query.error && !data ? (
        <ErrorState title="The provider figures could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <div className="h-96 animate-pulse rounded-lg bg-muted" role="status" aria-busy="true" aria-label="Loading the provider figures" />
      ) : data.total.sent === 0 ? (
        <EmptyState
          icon={MailIcon}
          title={`No mail sent in the ${RANGE_LABELS[range].toLowerCase()}`}
          description="Once messages go out, each mailbox provider's delivered, bounced, complained and opened counts appear here."
          action={
            <Button asChild size="sm">
              <Link href={projectHref(project, "compose")}>Compose a message</Link>
            </Button>
          }
        />
      ) : (
        <>
          {data.flags.length > 0 && (
            <section aria-label="Providers that stand out" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40">
              {data.flags.map((f) => (
                <p key={`${f.provider}-${f.metric}`} className="flex gap-2 text-sm" data-flag={`${f.provider}-${f.metric}`}>
                  <FlagIcon className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
                  <span>{f.text}</span>
                </p>
              ))}
            </section>
          )}
          <ProviderTable data={data} />
          <ProviderChart data={data} />
          <p className="text-xs text-muted-foreground">
            {data.pendingDomains > 0 && `${data.pendingDomains} company domain${data.pendingDomains === 1 ? " is" : "s are"} still being looked up and count as Other for now. `}
            A provider&apos;s rates are judged from {data.minVolume.toLocaleString()} messages; below that they are shown without a colour.{" "}
            {Object.entries(PROVIDERS)
              .map(([, p]) => `${p.label}: ${p.description}`)
              .join(". ")}
            .
          </p>
        </>
      )}
    </div>
  );
}
