"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/components/ui/toast";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import { streamStatusKeys, streamStatusQuery } from "@/lib/queries/event-stream";
import { messageMutations } from "@/lib/queries/messages";
import { webhookKeys } from "@/lib/queries/webhooks";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { StreamModeBadge, StreamModeExplanation } from "@/components/event-stream/stream-mode";

function Figure({ label, children, name }: { label: string; children: React.ReactNode; name: string }) {
  return (
    <div className="min-w-0 space-y-0.5" data-health={name}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm font-medium tabular-nums">{children}</dd>
    </div>
  );
}

/** The card's figures that are counts, in the order it shows them: label, data-health name, count. */
function countFigures(s: StreamStatus): [label: string, name: string, count: number][] {
  return [
    ["Accepted", "accepted", s.health.acceptedCount],
    ["Unusable (acknowledged)", "unusable", s.health.unusableCount],
    ["Refused signatures", "refused", s.health.refusedCount],
    ["Waiting to be read", "waiting", s.rereads.waiting],
  ];
}

/**
 * The dashboard's own event stream on the webhooks screen: whether statuses come from it
 * (live) or from the dashboard reading messages itself (polling) and why, and its health.
 */
export function StreamStatusCard({ project, initial, canConnect }: { project: string; initial: StreamStatus | null; canConnect: boolean }) {
  const queryClient = useQueryClient();
  const query = useQuery(streamStatusQuery(project, initial ?? undefined));
  const connect = useMutation({
    mutationFn: () => messageMutations.connectStream(project),
    onSuccess: async () => {
      toast.success("Event stream connected", { description: "Delivery events and inbound mail now reach the dashboard." });
      await Promise.all([queryClient.invalidateQueries({ queryKey: streamStatusKeys.detail(project) }), queryClient.invalidateQueries({ queryKey: webhookKeys.all(project) })]);
    },
    onError: (e) => toast.error("Could not connect the event stream", { description: e instanceof Error ? e.message : undefined }),
  });
  const s = query.data;

  return (
    <Card role="region" aria-labelledby="stream-status-title" data-stream-status={s?.code}>
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id="stream-status-title">Dashboard event stream</CardTitle>
          {s && <StreamModeBadge status={s} />}
        </div>
        <CardDescription>How this project&apos;s message statuses reach the dashboard&apos;s search and overview.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {query.error && !s ? (
          <ErrorState title="The stream's state could not be loaded" error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />
        ) : !s ? (
          <div className="space-y-2" role="status" aria-busy="true" aria-label="Loading the stream's state">
            <Skeleton className="h-4 w-3/4" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : (
          <>
            <p className="max-w-3xl text-sm" data-testid="stream-mode-reason">
              <StreamModeExplanation status={s} />
            </p>
            <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
              <Figure label="Last delivery" name="last-delivery">
                <RelativeTime value={s.health.lastDeliveryAt} fallback="None yet" />
              </Figure>
              {countFigures(s).map(([label, name, count]) => (
                <Figure key={name} label={label} name={name}>
                  {count.toLocaleString()}
                </Figure>
              ))}
              <Figure label="Rate limit" name="paused">
                {s.rereads.pausedUntil ? (
                  <>
                    paused until <RelativeTime value={s.rereads.pausedUntil} />
                  </>
                ) : (
                  "Not limited"
                )}
              </Figure>
            </dl>
            {s.health.lastReason && (
              <p className="text-sm text-muted-foreground" data-testid="stream-last-reason">
                Last problem <RelativeTime value={s.health.lastReasonAt} />: <span className="text-foreground">{s.health.lastReason}</span>
              </p>
            )}
            <div className="flex flex-wrap items-center gap-3 text-sm">
              {s.connected ? (
                <p className="min-w-0 text-muted-foreground">
                  Receives at <span className="break-all font-mono text-xs text-foreground">{s.url}</span>
                </p>
              ) : canConnect ? (
                <Button size="sm" onClick={() => connect.mutate()} pending={connect.isPending}>
                  Connect event stream
                </Button>
              ) : (
                <p className="text-muted-foreground">Ask an admin to connect the event stream.</p>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
