import { Link } from "@/components/common/link";
import type { IndexedMessage } from "@/lib/schemas/messages-index";
import { RelativeTime } from "@/components/common/relative-time";
import { StatusBadge } from "@/components/common/status-badge";
import { cn } from "@/lib/utils";
import { DirectionLabel } from "@/components/messages/direction-label";
import { messageHref } from "@/components/messages/hrefs";

/** The thread, oldest first, inbound and outbound; the message on screen is marked. */
export function Conversation({ project, thread, currentId }: { project: string; thread: IndexedMessage[]; currentId: string }) {
  return (
    <ol className="space-y-2" aria-label="Conversation">
      {thread.map((m) => {
        const current = m.id === currentId;
        return (
          <li
            key={m.id}
            data-thread-message={m.id}
            className={cn("rounded-md border px-3 py-2 text-sm", m.direction === "inbound" ? "mr-12" : "ml-12 bg-muted/40", current && "ring-2 ring-ring")}
          >
            <div className="flex flex-wrap items-center gap-2">
              <DirectionLabel direction={m.direction} />
              <StatusBadge status={m.status} />
              <span className="min-w-0 flex-1 truncate text-muted-foreground">{m.from}</span>
              <RelativeTime value={m.createdAt} className="text-xs" />
            </div>
            {current ? (
              <p className="mt-1 font-medium" aria-current="true">
                {m.subject || "(no subject)"} <span className="text-xs font-normal text-muted-foreground">(this message)</span>
              </p>
            ) : (
              <Link href={messageHref(project, m.id)} className="mt-1 block font-medium underline-offset-4 hover:underline">
                {m.subject || "(no subject)"}
              </Link>
            )}
          </li>
        );
      })}
    </ol>
  );
}
