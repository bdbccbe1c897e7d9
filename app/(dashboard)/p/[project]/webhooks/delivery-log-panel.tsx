"use client";

import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { deliveryLogKeys, deliveryLogMutations, deliveryLogQuery } from "@/lib/queries/webhook-deliveries";
import { DELIVERY_LOG, PROBLEM_OUTCOMES, type ProcessAgainResult, type WebhookDelivery } from "@/lib/schemas/webhook-deliveries";

const OUTCOME: Record<WebhookDelivery["outcome"], { label: string; className: string }> = {
  recorded: { label: "Recorded", className: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200" },
  duplicate: { label: "Duplicate", className: "" },
  unusable: { label: "Unusable", className: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200" },
  refused: { label: "Refused", className: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-200" },
};

function resultText(r: ProcessAgainResult): string {
  const reread = r.reread.length ? ` The message ${r.reread.join(", ")} will be read again from the service.` : "";
  if (r.outcome === "recorded") return `Recorded as a new event.${reread}`;
  if (r.outcome === "duplicate") return `Already recorded: the event stays recorded once.${reread}`;
  if (r.outcome === "unusable") return `Still unusable: ${r.reason ?? "no reason given"}.${reread}`;
  return `The stored body was cut, so it was not run again.${reread}`;
}

const isProblem = (d: WebhookDelivery) => (PROBLEM_OUTCOMES as readonly string[]).includes(d.outcome);
const count = (n: number) => `${n} deliver${n === 1 ? "y" : "ies"}`;

/** The delivery log's rows: loaded by DeliveryLogSection when opened. */
export default function DeliveryLogPanel({ project, canProcess }: { project: string; canProcess: boolean }) {
  const query = useQuery(deliveryLogQuery(project));
  // On a busy project the problems are what someone comes for, and a few among hundreds.
  const [problemsOnly, setProblemsOnly] = useState(false);
  if (query.error) return <ErrorState compact title="The deliveries could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  if (!query.data) return <Skeleton className="h-48" />;
  const all = query.data.data;
  const problems = all.filter(isProblem).length;
  const rows = problemsOnly ? all.filter(isProblem) : all;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {problemsOnly ? `${count(rows.length)} refused or unusable` : count(rows.length)}, newest first. Refreshed every 10 seconds.
        </p>
        <div className="flex items-center gap-1">
          <Button variant={problemsOnly ? "secondary" : "ghost"} size="sm" aria-pressed={problemsOnly} onClick={() => setProblemsOnly((p) => !p)}>
            Problems only ({problems})
          </Button>
          <Button variant="ghost" size="sm" onClick={() => query.refetch()} disabled={query.isFetching}>
            <RefreshCwIcon aria-hidden="true" /> Refresh
          </Button>
        </div>
      </div>
      {canProcess && (
        <p className="text-xs text-muted-foreground">
          <strong>Process again</strong> runs the stored body (addresses masked) through the same recording as a fresh delivery, under the same webhook-id, so an event
          already recorded stays recorded once; the message it names is then read again from the service, whose answer replaces what the body said.
        </p>
      )}
      {rows.length === 0 && problemsOnly ? (
        <EmptyState title="No problems" description={`None of the newest ${DELIVERY_LOG.rows} deliveries was refused or unusable, nor any of the ${DELIVERY_LOG.problems} such deliveries kept before them.`} />
      ) : rows.length === 0 ? (
        <EmptyState title="No deliveries yet" description={`Nothing has reached this project's ingest since the log began, or in the last ${DELIVERY_LOG.rows} deliveries.`} />
      ) : (
        <ul className="divide-y rounded-lg border" aria-label="Deliveries">
          {rows.map((d) => (
            <DeliveryItem key={d.id} project={project} delivery={d} canProcess={canProcess} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DeliveryItem({ project, delivery: d, canProcess }: { project: string; delivery: WebhookDelivery; canProcess: boolean }) {
  const queryClient = useQueryClient();
  const again = useMutation({
    mutationFn: () => deliveryLogMutations.processAgain(project, d.id),
    onSuccess: async (r) => {
      toast.success("Delivery processed again", { description: resultText(r) });
      await queryClient.invalidateQueries({ queryKey: deliveryLogKeys.list(project) });
    },
    onError: (e) => toast.error("Could not process the delivery again", { description: e instanceof Error ? e.message : undefined }),
  });
  const outcome = OUTCOME[d.outcome];
  return (
    <li className="min-w-0 space-y-2 p-3 text-sm" data-delivery-outcome={d.outcome} data-webhook-id={d.webhookId ?? ""}>
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline" className={outcome.className}>
          {outcome.label}
        </Badge>
        <RelativeTime value={d.receivedAt} className="text-xs text-muted-foreground" />
        {d.eventType && <span className="font-mono text-xs">{d.eventType}</span>}
        {canProcess && d.canProcessAgain && (
          <Button variant="outline" size="sm" className="ml-auto" onClick={() => again.mutate()} disabled={again.isPending}>
            {again.isPending ? "Processing…" : "Process again"}
          </Button>
        )}
      </div>
      <dl className="grid min-w-0 grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">webhook-id</dt>
        <dd className="break-all font-mono">{d.webhookId ?? "none"}</dd>
        <dt className="text-muted-foreground">Signature</dt>
        <dd className="break-words">{d.verified ? "Verified" : `Not verified: ${d.signature}`}</dd>
        {d.messageId && (
          <>
            <dt className="text-muted-foreground">Message</dt>
            <dd className="break-all font-mono">{d.messageId}</dd>
          </>
        )}
        {/* A refusal for its signature says why above; one refused for a limit names the limit here. */}
        {d.reason && d.reason !== d.signature && (
          <>
            <dt className="text-muted-foreground">Why</dt>
            <dd className="break-words">{d.reason}</dd>
          </>
        )}
      </dl>
      {d.body !== null ? (
        <details>
          <summary className="cursor-pointer text-xs text-muted-foreground">
            Body{d.bodyBytes !== null ? ` (${d.bodyBytes.toLocaleString()} bytes${d.bodyCut ? ", first 4 KB shown" : ""})` : ""}, redacted
          </summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">{d.body}</pre>
        </details>
      ) : (
        <p className="text-xs text-muted-foreground">Refused before its body was read.</p>
      )}
    </li>
  );
}
