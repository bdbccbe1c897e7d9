"use client";

import { Link } from "@/components/common/link";
import { BanIcon, CircleCheckIcon, MailSearchIcon } from "lucide-react";
import type { RecipientView } from "@/lib/schemas/messages-index";
import { PageHeader } from "@/components/common/page-header";
import { ExportMenu } from "@/components/export/export-menu";
import { CursorPager } from "@/components/common/cursor-pager";
import { EmptyState } from "@/components/common/empty-state";
import { CopyButton } from "@/components/common/copy-button";
import { RelativeTime } from "@/components/common/relative-time";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { useUrlState } from "@/components/hooks/use-url-state";
import { MessagesTable, messageHref } from "@/components/messages/messages-table";
import { EraseRecipient } from "./erase-recipient";
import { formatRate } from "@/lib/insight/thresholds";

const REASONS: Record<string, string> = {
  bounce: "a message to it bounced (the receiving server said the address does not work)",
  complaint: "the person marked a message as spam",
  unsubscribe: "the person unsubscribed",
  manual: "someone added it by hand",
};

export function RecipientScreen({ project, view, cursor }: { project: string; view: RecipientView; cursor: string | null }) {
  const { set } = useUrlState();
  const next = view.messages.nextCursor;
  const s = view.suppression;
  return (
    <div className="space-y-5">
      <PageHeader
        eyebrow={
          <Link href={`/p/${encodeURIComponent(project)}/messages`} className="underline-offset-4 hover:underline">
            Messages
          </Link>
        }
        title={
          <span className="inline-flex items-center gap-1">
            {view.email}
            <CopyButton value={view.email} label="address" size="icon-sm" />
          </span>
        }
        description="Every message to or from this address that the dashboard knows, and whether the service will deliver to it."
        actions={
          <>
            <ExportMenu path={`/api/p/${encodeURIComponent(project)}/recipients/${encodeURIComponent(view.email)}/export`} />
            <EraseRecipient project={project} email={view.email} />
          </>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>Deliverability</CardTitle>
        </CardHeader>
        <CardContent className="space-y-2 text-sm" data-testid="suppression-state">
          {view.suppressionError ? (
            <p className="text-muted-foreground">The suppression list could not be read: {view.suppressionError}</p>
          ) : s ? (
            <div className="flex gap-2">
              <BanIcon className="mt-0.5 size-4 shrink-0 text-red-600 dark:text-red-400" aria-hidden="true" />
              <div>
                <p className="font-medium">Suppressed: messages to this address are rejected without being sent.</p>
                <p>
                  Why: {REASONS[s.reason] ?? s.reason}. Since <RelativeTime value={s.createdAt} />.
                  {s.messageId && (
                    <>
                      {" "}
                      <Link href={messageHref(project, s.messageId)} className="underline underline-offset-4">
                        See the message behind it
                      </Link>
                      .
                    </>
                  )}
                </p>
              </div>
            </div>
          ) : (
            <p className="flex items-center gap-2">
              <CircleCheckIcon className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
              Not suppressed: the service delivers to this address.
            </p>
          )}
          <ContactLine contact={view.contact} />
        </CardContent>
      </Card>
      <EngagementCard engagement={view.engagement} />
      <section className="space-y-3" aria-label="Messages of this address">
        <h2 className="text-lg font-semibold">Messages</h2>
        {view.messages.data.length === 0 ? (
          <EmptyState icon={MailSearchIcon} title="No message to or from this address" description="Only messages the dashboard sent, looked up, or heard about from the event stream are listed." />
        ) : (
          <MessagesTable project={project} rows={view.messages.data} label={`Messages of ${view.email}`} />
        )}
        <CursorPager
          variant="timeline"
          label="Message pages"
          next="Older messages"
          onBack={cursor ? () => set({ cursor: null }) : undefined}
          onNext={next ? () => set({ cursor: next }) : undefined}
        />
      </section>
    </div>
  );
}

const share = (n: number, of: number) => (of ? ` (${formatRate(n / of)})` : "");

/** What this person did with the project's mail: counted per message from the open and click events. */
function EngagementCard({ engagement: e }: { engagement: RecipientView["engagement"] }) {
  const items = [
    { key: "received", label: "Messages received", value: e.received.toLocaleString() },
    { key: "delivered", label: "Delivered", value: `${e.delivered.toLocaleString()}${share(e.delivered, e.received)}` },
    { key: "opened", label: "Opened", value: `${e.opened.toLocaleString()}${share(e.opened, e.delivered)}` },
    { key: "clicked", label: "Clicked", value: `${e.clicked.toLocaleString()}${share(e.clicked, e.delivered)}` },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Engagement</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-sm" data-testid="recipient-engagement">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {items.map((i) => (
            <div key={i.key} data-metric={i.key}>
              <dt className="text-muted-foreground">{i.label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{i.value}</dd>
            </div>
          ))}
        </dl>
        <p className="text-muted-foreground">
          Last opened: <RelativeTime value={e.lastOpenAt} fallback="never" className="text-foreground" /> · Last clicked:{" "}
          <RelativeTime value={e.lastClickAt} fallback="never" className="text-foreground" />. Opens and clicks are counted once per message; shares are of the delivered messages.
        </p>
      </CardContent>
    </Card>
  );
}

function ContactLine({ contact }: { contact: RecipientView["contact"] }) {
  if (!contact) return <p className="text-muted-foreground">No contact record for this address in the dashboard&apos;s contacts.</p>;
  const name = [contact.firstName, contact.lastName].filter(Boolean).join(" ");
  return (
    <p data-testid="contact-state">
      Contact:{" "}
      <span className="font-medium">{name || contact.email}</span> <span className="font-mono text-xs text-muted-foreground">({contact.id})</span>{" "}
      — {contact.subscribed ? "subscribed" : "unsubscribed"}
      {!contact.subscribed && contact.unsubscribedAt && (
        <>
          {" "}
          since <RelativeTime value={contact.unsubscribedAt} />
        </>
      )}
      .
    </p>
  );
}
