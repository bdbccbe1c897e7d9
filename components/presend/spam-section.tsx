import { ShieldCheckIcon, ShieldAlertIcon, ShieldQuestionIcon } from "lucide-react";
import type { SpamResult } from "@/lib/schemas/presend";
import { TONE_CLASSES, type StatusTone } from "@/components/common/status-tones";
import { cn } from "@/lib/utils";

function tone(score: number, threshold: number): StatusTone {
  if (score >= threshold) return "danger";
  return score >= threshold / 2 ? "warning" : "success";
}

/** SpamAssassin's score against its threshold, and every rule that counted, in plain words. */
export function SpamSection({ spam }: { spam: SpamResult }) {
  if ("unavailable" in spam) {
    return (
      <section aria-label="Spam score" className="space-y-1 rounded-md border border-dashed p-3 text-sm" data-testid="spam-unavailable">
        <p className="flex items-center gap-1.5 font-medium">
          <ShieldQuestionIcon className="size-4 text-muted-foreground" aria-hidden="true" /> Spam score
        </p>
        <p className="text-muted-foreground">{spam.unavailable}</p>
        {spam.howToEnable && <p className="text-xs text-muted-foreground">To enable it: {spam.howToEnable}</p>}
      </section>
    );
  }
  const t = tone(spam.score, spam.threshold);
  const Icon = t === "success" ? ShieldCheckIcon : ShieldAlertIcon;
  return (
    <section aria-label="Spam score" className="space-y-2" data-testid="spam-score">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="text-sm font-semibold">Spam score</h3>
        <span className={cn("inline-flex items-center gap-1 rounded-md border px-1.5 py-0.5 text-xs font-medium", TONE_CLASSES[t])}>
          <Icon className="size-3.5" aria-hidden="true" />
          {spam.score.toFixed(1)} of {spam.threshold.toFixed(1)}
          {spam.isSpam ? " — would be marked as spam" : ""}
        </span>
        <span className="text-xs text-muted-foreground">SpamAssassin, local tests only (no DNS or sender authentication)</span>
      </div>
      {spam.rules.length > 0 && (
        <ul className="divide-y rounded-md border text-xs">
          {spam.rules.map((r) => (
            <li key={r.name} className="grid grid-cols-[3.5rem_1fr] gap-2 px-2 py-1.5" data-testid="spam-rule">
              <span className={cn("text-right font-mono tabular-nums", r.score > 0 ? "text-red-700 dark:text-red-300" : "text-muted-foreground")}>
                {r.score > 0 ? "+" : ""}
                {r.score.toFixed(1)}
              </span>
              <span>
                <span className="font-mono font-medium">{r.name}</span> — {r.explanation}
                {r.explanation.includes(r.description) ? null : <span className="block text-muted-foreground">{r.description}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
