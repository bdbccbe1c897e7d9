"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { useQuery } from "@tanstack/react-query";
import { HistoryIcon, RefreshCwIcon, SendIcon } from "lucide-react";
import type { MessageDetail } from "@/lib/schemas/messages-index";
import { messageDetailQuery } from "@/lib/queries/messages";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { PreparedEmailHtmlProvider } from "@/components/messages/use-rewritten-html";
import type { RewrittenHtml } from "@/lib/messages/email-html";
import { AttachmentsList } from "./attachments-list";
import { Conversation } from "./conversation";
import { MessageBody } from "./message-body";
import { MessageFields } from "./message-fields";
import { OutcomeCard } from "./outcome-card";
import { Timeline } from "./timeline";

/** The reply form and its form library load only where there is a reply to write (an inbound message). */
const ReplyFormCard = React.lazy(() => import("./reply-form").then((m) => ({ default: m.ReplyFormCard })));

/** The timeline is the centre; it refreshes by itself until the message settles (a final state, or quiet for a while). */
export function MessageScreen({
  project,
  id,
  initial,
  initialFrame,
  canReply,
  canSend,
}: {
  project: string;
  id: string;
  initial: MessageDetail;
  /** The first answer's html as the page rewrote it (html-rewrite-pool.ts); null: the frame loads the rewriter. */
  initialFrame: RewrittenHtml | null;
  canReply: boolean;
  canSend: boolean;
}) {
  const query = useQuery(messageDetailQuery(project, id, initial));
  const detail = query.data ?? initial;
  const m = detail.message;
  const source = initial.message.html;
  const prepared = React.useMemo(() => (initialFrame && source ? { source, rewritten: initialFrame } : undefined), [initialFrame, source]);
  const back = `/p/${encodeURIComponent(project)}/messages`;
  const replyTo = m.direction === "inbound" ? m.from : m.to.join(", ");

  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={
          <Link href={back} className="underline-offset-4 hover:underline">
            Messages
          </Link>
        }
        title={m.subject || "(no subject)"}
        actions={
          <>
            {!detail.settled ? (
              <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" role="status" data-testid="message-liveness">
                <RefreshCwIcon className="size-3.5 motion-safe:animate-spin" aria-hidden="true" />
                Updating live
              </span>
            ) : detail.lastChangedAt ? (
              <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" role="status" data-testid="message-liveness">
                <HistoryIcon className="size-3.5" aria-hidden="true" />
                Last changed <RelativeTime value={detail.lastChangedAt} />
              </span>
            ) : null}
            {canSend && m.direction === "outbound" && (
              <Button variant="outline" asChild>
                <Link href={`/p/${encodeURIComponent(project)}/compose?from=${encodeURIComponent(m.id)}`}>
                  <SendIcon aria-hidden="true" />
                  Send again
                </Link>
              </Button>
            )}
          </>
        }
      />
      {query.isError && <ErrorState compact title="Could not refresh this message" error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />}
      <OutcomeCard message={m} suppressions={detail.suppressions} settled={detail.settled} />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <Timeline events={m.events} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            <MessageFields project={project} message={m} />
          </CardContent>
        </Card>
      </div>
      {detail.thread.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Conversation</CardTitle>
          </CardHeader>
          <CardContent>
            <Conversation project={project} thread={detail.thread} currentId={m.id} />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Body</CardTitle>
        </CardHeader>
        <CardContent>
          <PreparedEmailHtmlProvider value={prepared}>
            <MessageBody message={m} />
          </PreparedEmailHtmlProvider>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Attachments</CardTitle>
        </CardHeader>
        <CardContent>
          <AttachmentsList attachments={detail.attachments} error={detail.attachmentsError} />
        </CardContent>
      </Card>
      {m.direction === "inbound" && (
        <Card>
          <CardHeader>
            <CardTitle>Reply</CardTitle>
          </CardHeader>
          <CardContent>
            {canReply ? (
              <React.Suspense fallback={<div className="h-72 animate-pulse rounded-md bg-muted" role="status" aria-busy="true" aria-label="Loading the reply form" />}>
                <ReplyFormCard project={project} id={m.id} subject={m.subject} to={replyTo} />
              </React.Suspense>
            ) : (
              <p className="text-sm text-muted-foreground">Replying is for support staff and admins; your role can read messages only.</p>
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
