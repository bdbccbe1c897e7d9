"use client";

import { keepPreviousData, useMutation, useQueryClient } from "@tanstack/react-query";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import type { FirstLoad } from "@/components/common/first-load";
import { RadioTowerIcon, Trash2Icon, WebhookIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { Page } from "@/lib/schemas/common";
import type { StreamStatus } from "@/lib/schemas/event-stream";
import type { WebhookListItem } from "@/lib/schemas/webhooks-form";
import { webhookKeys, webhookMutations, webhooksQuery } from "@/lib/queries/webhooks";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { RelativeTime } from "@/components/common/relative-time";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { TableSkeleton } from "@/components/common/table-skeleton";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PagedList } from "@/components/common/paged-list";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { useUrlState } from "@/components/hooks/use-url-state";
import { useShell } from "@/components/shell/shell-context";
import { CreateWebhookDialog } from "./create-webhook-dialog";
import { StreamStatusCard } from "./stream-status-card";
import { DeliveryLogSection } from "./delivery-log-section";
import { WebhookTestSection } from "./webhook-test-section";
import { streamStatusKeys } from "@/lib/queries/event-stream";

export function WebhooksScreen({ project, initial, stream, canConnect }: { project: string; initial: FirstLoad<Page<WebhookListItem>>; stream: StreamStatus | null; canConnect: boolean }) {
  const { get } = useUrlState();
  const { can } = useShell();
  const cursor = get("cursor");
  const queryClient = useQueryClient();
  const query = useFirstLoadQuery({ ...webhooksQuery(project, cursor), initialData: initial.data, placeholderData: keepPreviousData }, initial.error);
  const create = <CreateWebhookDialog project={project} />;

  const removal = useMutation({
    mutationFn: ({ w, confirmUrl }: { w: WebhookListItem; confirmUrl?: string }) => webhookMutations.remove(project, w.id, confirmUrl),
    onSuccess: async (_r, { w }) => {
      toast.success("Webhook deleted", { description: `${w.url} receives no more events.` });
      await Promise.all([queryClient.invalidateQueries({ queryKey: webhookKeys.all(project) }), queryClient.invalidateQueries({ queryKey: streamStatusKeys.detail(project) })]);
    },
  });
  const remove = (w: WebhookListItem, confirmUrl?: string) => removal.mutateAsync({ w, confirmUrl });

  return (
    <div className="space-y-6">
      <PageHeader title="Webhooks" description="Endpoints the service notifies about delivery and inbound events. Signing secrets are shown once, when the endpoint is created." actions={create} />
      <StreamStatusCard project={project} initial={stream} canConnect={canConnect} />
      <PagedList
        query={query}
        failure="The webhooks could not be loaded"
        skeleton={<TableSkeleton columns={["w-64", "w-40", "w-16", "w-20", "w-8"]} rows={3} />}
        empty={<EmptyState icon={WebhookIcon} title="No webhooks yet" description="Add an endpoint to be told when mail is delivered, bounces or arrives." action={create} />}
      >
        {(rows) => (
          <ListTable label="Webhooks" columns={["Endpoint", "Events", "Signing secret", "Created", { label: "Actions", className: "w-12", hidden: true }]}>
            {rows.map((w) => (
              <TableRow key={w.id} data-webhook-id={w.id}>
                <TableCell className="max-w-96">
                  <p className="truncate font-mono text-xs" title={w.url}>
                    {w.url}
                  </p>
                  <div className="mt-1 flex flex-wrap gap-1">
                    {w.isEventStream && (
                      <Badge variant="outline" className="gap-1 border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-200">
                        <RadioTowerIcon className="size-3" aria-hidden="true" /> Dashboard event stream
                      </Badge>
                    )}
                    {!w.enabled && <Badge variant="outline">Disabled</Badge>}
                  </div>
                </TableCell>
                <TableCell className="max-w-72 text-xs text-muted-foreground">
                  {w.eventTypes.length > 4 ? `${w.eventTypes.slice(0, 4).join(", ")} and ${w.eventTypes.length - 4} more` : w.eventTypes.join(", ")}
                </TableCell>
                <TableCell className="font-mono text-xs text-muted-foreground" aria-label="Signing secret hidden">
                  ••••••••
                </TableCell>
                <TableCell>
                  <RelativeTime value={w.createdAt} />
                </TableCell>
                <TableCell className="text-right">
                  {can("webhooks:write") && (
                    <ConfirmDialog
                      title={w.isEventStream ? "Delete the dashboard's event stream?" : `Delete the webhook to ${w.url}?`}
                      description={
                        w.isEventStream ? (
                          <>
                            This endpoint feeds the dashboard&apos;s message index. Without it, new messages and their events stop appearing in Messages and the
                            overview. <span className="break-all font-mono">{w.url}</span>
                          </>
                        ) : (
                          <>
                            <span className="break-all font-mono">{w.url}</span> will stop receiving events at once. Deliveries already queued are dropped.
                          </>
                        )
                      }
                      confirmLabel="Delete webhook"
                      typeToConfirm={w.isEventStream ? w.url : undefined}
                      onConfirm={() => remove(w, w.isEventStream ? w.url : undefined)}
                      trigger={
                        <Button variant="ghost" size="icon-sm" aria-label={`Delete webhook ${w.url}`}>
                          <Trash2Icon aria-hidden="true" />
                        </Button>
                      }
                    />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </ListTable>
        )}
      </PagedList>
      {can("webhooks:write") && <WebhookTestSection project={project} />}
      <DeliveryLogSection project={project} canProcess={can("webhooks:write")} />
    </div>
  );
}
