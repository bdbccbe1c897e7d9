import { Link } from "@/components/common/link";
import type { Message } from "@/lib/schemas/emails";
import { CopyButton } from "@/components/common/copy-button";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { DirectionLabel } from "@/components/messages/direction-label";
import { recipientHref } from "@/components/messages/hrefs";

function bare(address: string): string {
  const m = /<([^<>]+)>\s*$/.exec(address);
  return (m ? m[1] : address).trim();
}

function Row({ label, children, copy }: { label: string; children: React.ReactNode; copy?: string }) {
  return (
    <div className="grid grid-cols-[5.5rem_1fr] items-start gap-2 py-1.5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-start justify-between gap-2 text-sm break-words">
        <div className="min-w-0">{children}</div>
        {copy ? <CopyButton value={copy} label={label.toLowerCase()} size="icon-sm" className="-my-1 shrink-0" /> : null}
      </dd>
    </div>
  );
}

/** Addresses link to the recipient view: "everything about this address" is one click away. */
function Addresses({ project, list }: { project: string; list: string[] }) {
  if (list.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="flex flex-col">
      {list.map((a) => (
        <Link key={a} href={recipientHref(project, bare(a))} className="truncate underline-offset-4 hover:underline" title={`Everything about ${bare(a)}`}>
          {a}
        </Link>
      ))}
    </span>
  );
}

export function MessageFields({ project, message }: { project: string; message: Message }) {
  const tags = (message.tags ?? []).map((t) => (t.value ? `${t.name}:${t.value}` : t.name));
  return (
    <dl className="divide-y" aria-label="Message fields">
      <Row label="Status">
        <StatusBadge status={message.status} />
      </Row>
      <Row label="Direction">
        <DirectionLabel direction={message.direction} />
      </Row>
      <Row label="From" copy={message.from}>
        <Addresses project={project} list={[message.from]} />
      </Row>
      <Row label="To" copy={message.to.join(", ")}>
        <Addresses project={project} list={message.to} />
      </Row>
      {(message.cc?.length ?? 0) > 0 && (
        <Row label="Cc" copy={message.cc!.join(", ")}>
          <Addresses project={project} list={message.cc!} />
        </Row>
      )}
      <Row label="Subject" copy={message.subject ?? undefined}>
        {message.subject || <span className="text-muted-foreground italic">(no subject)</span>}
      </Row>
      <Row label="Created" copy={message.createdAt}>
        <RelativeTime value={message.createdAt} />
      </Row>
      <Row label="Tags" copy={tags.length ? tags.join(", ") : undefined}>
        {tags.length ? (
          <span className="flex flex-wrap gap-1">
            {tags.map((t) => (
              <code key={t} className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
                {t}
              </code>
            ))}
          </span>
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </Row>
      <Row label="Id" copy={message.id}>
        <code className="font-mono text-xs break-all" data-testid="message-id">
          {message.id}
        </code>
      </Row>
    </dl>
  );
}
