"use client";

import type { FirstLoad } from "@/components/common/first-load";
import { FlagIcon, MailIcon } from "lucide-react";
import type { DeliverabilityData } from "@/lib/schemas/deliverability";
import { PROVIDERS } from "@/lib/insight/providers";
import { deliverabilityQuery } from "@/lib/queries/insight";
import { usePeriodQuery } from "@/components/insight/use-period-query";
import { PeriodScreen } from "@/components/insight/period-screen";
import { ProviderTable } from "./provider-table";
import { ProviderChart } from "./provider-chart";

/** "Where is our mail failing?": the period's outcomes per mailbox provider, against the thresholds. */
export function DeliverabilityScreen({ project, initial }: { project: string; initial: FirstLoad<DeliverabilityData> }) {
  const { range, setRange, query } = usePeriodQuery((r) => deliverabilityQuery(project, r), initial);
  return (
    <PeriodScreen
      header={{
        title: "Deliverability",
        description:
          "How each mailbox provider takes this project's mail: consumer domains by name (gmail.com, outlook.com…), company domains by where their MX records point (Google Workspace, Microsoft 365…).",
      }}
      period={{ range, setRange }}
      query={query}
      failure="The provider figures could not be loaded"
      loading="Loading the provider figures"
      empty={{
        project,
        when: (data) => data.total.sent === 0,
        icon: MailIcon,
        title: (period) => `No mail sent in the ${period}`,
        description: "Once messages go out, each mailbox provider's delivered, bounced, complained and opened counts appear here.",
      }}
    >
      {(data) => (
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
    </PeriodScreen>
  );
}
