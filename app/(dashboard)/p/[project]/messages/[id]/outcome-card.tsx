import { CircleAlertIcon, CircleCheckIcon, HourglassIcon, InfoIcon } from "lucide-react";
import type { Message } from "@/lib/schemas/emails";
import type { Suppression } from "@/lib/schemas/suppressions";
import { cn } from "@/lib/utils";
import { explainOutcome } from "./explain";

const TONES = {
  success: { icon: CircleCheckIcon, className: "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50" },
  danger: { icon: CircleAlertIcon, className: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-50" },
  warning: { icon: HourglassIcon, className: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50" },
  info: { icon: InfoIcon, className: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50" },
} as const;

/** "What happened, and what do I do now" in one block at the top of the message screen. */
export function OutcomeCard({ message, suppressions, settled = false }: { message: Message; suppressions: Suppression[]; settled?: boolean }) {
  const e = explainOutcome(message, suppressions, { settled });
  const tone = TONES[e.tone];
  const Icon = tone.icon;
  return (
    <section aria-label="Outcome" data-testid="outcome" className={cn("flex gap-3 rounded-lg border p-4", tone.className)}>
      <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <h2 className="font-semibold">{e.title}</h2>
        <p className="text-sm">{e.detail}</p>
        {e.next && (
          <p className="text-sm">
            <span className="font-medium">Next step: </span>
            {e.next}
          </p>
        )}
      </div>
    </section>
  );
}
