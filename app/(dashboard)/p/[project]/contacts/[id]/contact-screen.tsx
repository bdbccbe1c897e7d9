"use client";

import * as React from "react";
import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCwIcon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { Contact } from "@/lib/schemas/contacts";
import { resubscribeRequest } from "@/lib/schemas/contacts-form";
import { contactKeys, contactMutations, contactQuery } from "@/lib/queries/contacts";
import { PageHeader } from "@/components/common/page-header";
import { CopyableText } from "@/components/common/copy-button";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { ErrorState } from "@/components/common/error-state";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-error";
import { describeError } from "@/components/common/error-advice";

function ResubscribeDialog({ project, contact }: { project: string; contact: Contact }) {
  const [open, setOpen] = React.useState(false);
  const [reason, setReason] = React.useState("");
  const [fieldError, setFieldError] = React.useState<string | null>(null);
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => contactMutations.resubscribe(project, contact.id, reason),
    onSuccess: (c) => {
      queryClient.setQueryData(contactKeys.one(project, contact.id), c);
      void queryClient.invalidateQueries({ queryKey: contactKeys.all(project) });
      toast.success("Contact resubscribed", { description: `${c.email} receives mail again. The reason is in the audit log.` });
      setOpen(false);
      setReason("");
    },
  });
  const failed = mutation.error ? describeError(mutation.error) : null;
  return (
    <Dialog open={open} onOpenChange={(o) => !mutation.isPending && setOpen(o)}>
      <DialogTrigger asChild>
        <Button>Resubscribe</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Resubscribe {contact.email}?</DialogTitle>
          <DialogDescription>This person unsubscribed. Resubscribe only when they asked for it; the reason is recorded in the audit log with your name.</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            const parsed = resubscribeRequest.safeParse({ reason });
            if (!parsed.success) return setFieldError(parsed.error.issues[0].message);
            setFieldError(null);
            mutation.mutate();
          }}
        >
          <label htmlFor="resubscribe-reason" className="text-sm font-medium">
            Reason
          </label>
          <Textarea id="resubscribe-reason" value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={fieldError ? true : undefined} placeholder="Asked to be added back by email on 12 March (ticket 4821)" />
          {fieldError && <p role="alert" className="text-xs font-medium text-destructive dark:text-red-300">Reason: {fieldError}</p>}
          <FormError message={failed?.message} correlationId={failed?.correlationId} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={mutation.isPending}>
              Resubscribe
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
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
      <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-3 rounded-md border p-4 text-sm">
        <dt className="text-muted-foreground">Subscription</dt>
        <dd data-testid="subscription-state">
          <StatusBadge status={c.subscribed ? "delivered" : "complained"} label={c.subscribed ? "Subscribed" : "Unsubscribed"} />
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
