import "server-only";
import type { Db } from "@/lib/server/db";
import { redactorsFor, type Redactor } from "@/lib/server/redaction/redactor";
import type { DeliveredEvent } from "./payload";
import type { StreamEvent } from "./stream-event";

/** The events as the index may hold them after their projects' erasures (the same array when no project erased anything). */
export async function redactedEvents(tx: Db, events: StreamEvent[]): Promise<StreamEvent[]> {
  const redactors = await redactorsFor(tx, events.map((s) => s.projectId));
  if (![...redactors.values()].some((r) => r.active)) return events;
  return events.map((s) => {
    const r = redactors.get(s.projectId)!;
    return r.active ? { ...s, event: redactedEvent(s.event, r) } : s;
  });
}

function redactedEvent(e: DeliveredEvent, r: Redactor): DeliveredEvent {
  return {
    ...e,
    from: e.from === null ? null : r.one(e.from),
    to: e.to === null ? null : r.list(e.to),
    subject: r.maybe(e.subject),
    text: r.maybe(e.text),
    html: r.maybe(e.html),
    details: r.json(e.details),
  };
}
