"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { Contact } from "@/lib/schemas/contacts";
import { contactKeys, contactMutations, contactQuery } from "@/lib/queries/contacts";
import { PageHeader } from "@/components/common/page-header";
import { CopyableText } from "@/components/common/copy-button";
import { RelativeTime } from "@/components/common/relative-time";
import { SubscriptionBadge } from "@/components/contacts/subscription-badge";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";
import { LazyDialog } from "@/components/common/lazy-dialog";

/** The dialog, its form and zod load when the button is first used (./resubscribe-dialog-form.tsx). */
const loadResubscribe = () => import("./resubscribe-dialog-form");
const ResubscribeDialogForm = React.lazy(() => loadResubscribe().then((m) => ({ default: m.ResubscribeDialogForm })));

function ResubscribeDialog({ project, contact }: { project: string; contact: Contact }) {
  return (
    <LazyDialog load={loadResubscribe} trigger={<Button>Resubscribe</Button>}>
      {(dialog) => <ResubscribeDialogForm project={project} contact={contact} {...dialog} />}
    </LazyDialog>
  );
}

/** One contact, read fresh from the service, with its subscription state. */
export function ContactScreen({ project, initial, canWrite }: { project: string; initial: Contact; canWrite: boolean }) {
  const { data: c = initial, error, refetch, isFetching } = useQuery({ ...contactQuery(project, initial.id), initialData: initial });
  const name = [c.firstName, c.lastName].filter(Boolean).join(" ");
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        eyebrow={<Link href={`/p/${encodeURIComponent(project)}/contacts`} className="underline-offset-4 hover:underline">Contacts</Link>}
        title={c.email}
        description={name || undefined}
        actions={
          <>
            <Button variant="outline" onClick={() => refetch()} pending={isFetching}>
              <RefreshCwIcon aria-hidden="true" />
              Refresh
            </Button>
            {!c.subscribed && (canWrite ? <ResubscribeDialog project={project} contact={c} /> : <span className="text-sm text-muted-foreground">Your role cannot resubscribe contacts.</span>)}
          </>
        }
      />
      {error && <ErrorState compact error={error} onRetry={() => refetch()} />}
      <dl className="grid grid-cols-[7rem_minmax(0,1fr)] gap-x-4 md:grid-cols-[10rem_minmax(0,1fr)] gap-y-3 rounded-md border p-4 text-sm">
        <dt className="text-muted-foreground">Subscription</dt>
        <dd data-testid="subscription-state">
          <SubscriptionBadge subscribed={c.subscribed} />
          {!c.subscribed && c.unsubscribedAt && (
            <span className="ml-2 text-muted-foreground">
              since <RelativeTime value={c.unsubscribedAt} />
            </span>
          )}
        </dd>
        <dt className="text-muted-foreground">Contact id</dt>
        <dd>
          <CopyableText value={c.id} label="contact id" />
        </dd>
        <dt className="text-muted-foreground">Created</dt>
        <dd>
          <RelativeTime value={c.createdAt} />
        </dd>
        <dt className="text-muted-foreground">Metadata</dt>
        <dd>
          {Object.keys(c.metadata ?? {}).length ? (
            <pre className="overflow-x-auto rounded bg-muted/50 p-2 text-xs">{JSON.stringify(c.metadata, null, 2)}</pre>
          ) : (
            "—"
          )}
        </dd>
      </dl>
    </div>
  );
}
