import { Link } from "@/components/common/link";
import { AlertTriangleIcon, OctagonAlertIcon } from "lucide-react";
import { activeAlertAdvice, activeAlertSentence } from "@/lib/insight/alert-words";
import type { ActiveAlertsView } from "@/lib/schemas/alerts";
import { cn } from "@/lib/utils";

const TONE = {
  limit: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950/60 dark:text-red-50",
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-50",
} as const;

/**
 * The alerts of app/(dashboard)/p/[project]/alert-banner.tsx, in words. Not a client module of
 * its own: the layout renders it on the server for the page's alerts, and the banner loads it
 * in the browser only when the alerts change while a screen is open.
 */
export function AlertBannerList({ project, active }: { project: string; active: ActiveAlertsView["active"] }) {
  const base = `/p/${encodeURIComponent(project)}`;
  return (
    <section aria-label="Deliverability alerts" className="mb-4 space-y-2" data-testid="alert-banner">
      {active.map((a) => {
        const Icon = a.level === "limit" ? OctagonAlertIcon : AlertTriangleIcon;
        return (
          <div key={a.metric} className={cn("flex gap-3 rounded-lg border px-4 py-3 text-sm", TONE[a.level])} data-alert={`${a.metric}-${a.level}`}>
            <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <div className="space-y-1">
              <p className="font-medium">{activeAlertSentence(a)}</p>
              <p>
                {activeAlertAdvice(a.metric)}{" "}
                <Link href={`${base}/deliverability`} className="font-medium underline underline-offset-4">
                  Deliverability by provider
                </Link>
                {" · "}
                <Link href={`${base}/alerts`} className="font-medium underline underline-offset-4">
                  Alerts and thresholds
                </Link>
              </p>
            </div>
          </div>
        );
      })}
    </section>
  );
}
