import type { Message } from "@/lib/schemas/emails";
import type { MessageEvent } from "@/lib/schemas/events";
import type { Suppression } from "@/lib/schemas/suppressions";
import { canonicalEventType, canonicalStatus, isKnownStatus } from "@/lib/messages/vocabulary";
import { eventReason } from "./event-details";

export { eventReason };

export type Explanation = { tone: "success" | "danger" | "warning" | "info"; title: string; detail: string; next: string | null };

function lastOf(events: MessageEvent[], type: string): MessageEvent | undefined {
  return [...events].reverse().find((e) => canonicalEventType(e.type) === type);
}

/**
 * One plain sentence on what happened to the message and the next step, from its status,
 * its events and the recipients' suppressions. Written for the support agent on a call.
 * `settled`: nothing is expected to change any more (lib/messages/vocabulary.ts isSettled),
 * so the screen no longer says it updates by itself.
 */
export function explainOutcome(m: Message, suppressions: Suppression[] = [], opts: { settled?: boolean } = {}): Explanation {
  const to = m.to.join(", ") || "the recipient";
  const suppressedBy = (reason: string) => suppressions.find((s) => s.reason === reason);
  if (!isKnownStatus(m.status)) {
    return {
      tone: "info",
      title: `Status: ${m.status || "not given"}`,
      detail: `The email service reports “${m.status || "no status"}”, a word this dashboard does not know. The timeline below shows every event it gave, with its details.`,
      next: opts.settled
        ? "Nothing has changed for a while. If the timeline does not explain it, ask the service's support about this status, with the message id."
        : "Wait: this page updates by itself until the message stops changing.",
    };
  }
  switch (canonicalStatus(m.status)) {
    case "delivered": {
      const clicked = lastOf(m.events, "click");
      const opened = lastOf(m.events, "open");
      return {
        tone: "success",
        title: "Delivered",
        detail: `The receiving server for ${to} accepted the message${clicked ? ", and a link in it was clicked" : opened ? ", and it was opened" : ""}.`,
        next: clicked || opened ? null : "If the recipient cannot find it, ask them to check their spam or junk folder and any filtering rules.",
      };
    }
    case "bounced": {
      const reason = eventReason(lastOf(m.events, "bounce"));
      const suppressed = suppressedBy("bounce");
      return {
        tone: "danger",
        title: suppressed ? "Bounced, and the address is now suppressed" : "Bounced",
        detail: `The receiving server refused the message for ${to}${reason ? `: ${reason}` : "."}${suppressed ? " The address was added to the suppression list, so later messages to it are rejected without being sent." : ""}`,
        next: suppressed
          ? "Confirm the address with the customer. Once it is fixed, remove the suppression and send again."
          : "Confirm the address with the customer, then send again.",
      };
    }
    case "complained":
      return {
        tone: "danger",
        title: "The recipient reported it as spam",
        detail: `It was delivered, then ${to} marked it as spam.${suppressedBy("complaint") ? " The address is suppressed and receives nothing more." : ""}`,
        next: "Do not send to this address again unless the person asks for it.",
      };
    case "rejected": {
      const reason = eventReason(lastOf(m.events, "rejected")) ?? eventReason(lastOf(m.events, "inbound_rejected"));
      const suppressed = suppressions[0] ?? null;
      if (suppressed || (reason && /suppress/i.test(reason))) {
        return {
          tone: "danger",
          title: "Rejected: the address is suppressed",
          detail: `Not sent, because ${suppressed?.email ?? to} is on the suppression list${suppressed ? ` (reason: ${suppressed.reason})` : ""}.`,
          next: "If the address now works (the customer fixed their mailbox or asked to receive mail again), remove the suppression, then send again.",
        };
      }
      return { tone: "danger", title: "Rejected before sending", detail: `The service refused to send it${reason ? `: ${reason}` : "."}`, next: "Fix what the reason names, then send again." };
    }
    case "failed": {
      const rendering = lastOf(m.events, "rendering_failure");
      if (rendering) {
        const d = rendering.data ?? {};
        const missing = Array.isArray(d.missing) ? (d.missing as unknown[]).map(String) : [];
        return {
          tone: "danger",
          title: "Failed: a template variable is missing",
          detail: missing.length
            ? `The template needs ${missing.map((v) => `“${v}”`).join(", ")}, which the send did not provide.`
            : `The template could not be rendered${eventReason(rendering) ? `: ${eventReason(rendering)}` : "."}`,
          next: "Send again with the missing variable filled in (or fix the template).",
        };
      }
      const reason = eventReason(lastOf(m.events, "failed"));
      return { tone: "danger", title: "Failed", detail: `The service could not process it${reason ? `: ${reason}` : "."}`, next: "Send again; if it fails again, contact the service's support with the message id." };
    }
    case "canceled":
      return { tone: "info", title: "Canceled", detail: "It was canceled before it was sent; nothing went out.", next: null };
    case "received":
      return { tone: "info", title: "Received", detail: `Inbound mail from ${m.from}.`, next: "Reply below to answer in the same thread." };
    default: {
      const delayed = lastOf(m.events, "delivery_delayed");
      if (delayed) {
        const reason = eventReason(delayed);
        return {
          tone: "warning",
          title: "Delayed: the service is retrying",
          detail: `The receiving server did not take it yet${reason ? ` (${reason})` : ""}. The service keeps retrying on its own.`,
          next: opts.settled ? "Reload later to see whether it went through. Nothing needs to be sent again." : "Wait: this page updates by itself. Nothing needs to be sent again.",
        };
      }
      return opts.settled
        ? { tone: "info", title: "On its way", detail: "It is accepted, and nothing has changed for a while.", next: "Reload to check again; if it stays here, ask the service's support with the message id." }
        : { tone: "info", title: "On its way", detail: "It is accepted and moving through sending.", next: "Wait: this page updates by itself as events arrive." };
    }
  }
}
