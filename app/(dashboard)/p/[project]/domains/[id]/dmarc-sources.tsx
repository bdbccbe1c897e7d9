import type { DmarcSource } from "@/lib/schemas/dmarc";

const CAUSE: Record<NonNullable<DmarcSource["flag"]>["cause"], string> = {
  forgotten_sender: "Unconfigured sender",
  forwarding: "Forwarding",
  spoofing: "Possible spoofing",
};

function result(kind: string, aligned: boolean, value: string | null, domain: string | null) {
  if (aligned) return `${kind} pass, aligned`;
  return `${kind} ${value ?? "none"}${domain ? ` (${domain})` : ""}, not aligned`;
}

/**
 * The sources that sent as the domain, most first: one card each (it wraps on a phone; a
 * table of nine columns would not fit), failing ones with the likely cause and next step.
 */
export function DmarcSources({ sources, more }: { sources: DmarcSource[]; more: number }) {
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">Sources</h3>
      <ul className="space-y-2" aria-label="Sources sending as this domain">
        {sources.map((s) => (
          <li key={`${s.ip}|${s.reporter}|${s.dkimResult}|${s.spfResult}|${s.dkimDomain}|${s.spfDomain}|${s.dkimAligned}|${s.spfAligned}`} className="rounded-lg border bg-card p-3 text-sm">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <span className="min-w-0 break-all">
                <span className="font-mono">{s.ip}</span>
                {s.name && <span className="text-muted-foreground"> · {s.name}</span>}
              </span>
              <span className="shrink-0 tabular-nums">
                {s.count.toLocaleString()} message{s.count === 1 ? "" : "s"}
              </span>
            </div>
            <p className="mt-1 break-words text-muted-foreground">
              Reported by {s.reporter} · {result("DKIM", s.dkimAligned, s.dkimResult, s.dkimDomain)} · {result("SPF", s.spfAligned, s.spfResult, s.spfDomain)} · receiver did: {s.dispositions.join(", ") || "none"}
            </p>
            {s.flag ? (
              <div className="mt-2 space-y-1 rounded-md bg-warning px-3 py-2 text-warning-foreground" role="note">
                <p>
                  <strong>{CAUSE[s.flag.cause]}.</strong> {s.flag.text}
                </p>
                <p>Next: {s.flag.next}</p>
              </div>
            ) : (
              <p className="mt-1 text-emerald-700 dark:text-emerald-400">Passes DMARC.</p>
            )}
          </li>
        ))}
      </ul>
      {more > 0 && <p className="text-sm text-muted-foreground">and {more.toLocaleString()} smaller source{more === 1 ? "" : "s"} not listed.</p>}
    </div>
  );
}
