import { message as serviceMessage } from "@/lib/schemas/emails";
import type { MessageListQuery } from "@/lib/schemas/messages-index";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { recordSentMessages } from "@/lib/server/message-index/record";

/**
 * Two projects holding mirror-image messages, for the tests of the messages search's project
 * filter (lib/server/messages/search.test.ts, the messages route's): the same addresses,
 * subjects, tags, statuses, directions and times, only the ids differ (`alpha-…`, `beta-…`),
 * so every filter in FILTERS matches in both. Written by the real writers: recordSentMessages
 * for sends, indexServiceMessage for inbound mail.
 */
export const day = (d: number) => new Date(Date.UTC(2026, 0, d, 12));

export async function indexMirroredMessages(projectIds: Record<"alpha" | "beta", string>): Promise<void> {
  for (const p of ["alpha", "beta"] as const) {
    const projectId = projectIds[p];
    const send = (n: number, to: string, subject: string, status: string, tag: string) => ({
      projectId,
      messageId: `${p}-out-000${n}`,
      request: { from: { email: "shop@acme.test" }, to: [{ email: to }], subject, text: "x", tags: [{ name: "kind", value: tag }] },
      sentBy: null,
      idempotencyKey: `${p}-k${n}`,
      source: "dashboard" as const,
      status,
      createdAt: day(n),
    });
    await recordSentMessages([
      send(1, "shared@example.com", "Order shipped", "delivered", "receipt"),
      send(2, "shared@example.com", "Order shipped again", "bounced", "receipt"),
      send(3, "other@example.com", "Newsletter", "delivered", "news"),
    ]);
    await indexServiceMessage(
      projectId,
      serviceMessage.parse({
        id: `${p}-in-0004`,
        from: "shared@example.com",
        to: ["help@acme.test"],
        subject: "Order question",
        status: "received",
        direction: "inbound",
        createdAt: day(4).toISOString(),
        events: [{ type: "inbound_received", createdAt: day(4).toISOString() }],
      }),
    );
  }
}

/** Every filter the search has, alone and together, each matching in both projects. */
export const FILTERS: MessageListQuery[] = [
  {},
  { q: "shared@example.com" },
  { q: "SHARED@example.com" },
  { q: "Order" },
  { q: "shipped" },
  { q: "shop@acme" },
  { status: "delivered" },
  { status: "bounced" },
  { status: "received" },
  { direction: "inbound" },
  { direction: "outbound" },
  { tag: "kind" },
  { tag: "kind:receipt" },
  { from: day(2).toISOString() },
  { to: day(2).toISOString() },
  { from: day(1).toISOString(), to: day(3).toISOString() },
  { q: "shared@example.com", status: "bounced", direction: "outbound", tag: "kind:receipt", from: day(1).toISOString(), to: day(3).toISOString() },
  { q: "Order", direction: "inbound", status: "received" },
  // The search language (issue 28): each kind of term, negations and combinations.
  { q: "to:shared@example.com status:bounced" },
  { q: "from:shared@example.com" },
  { q: "to:shared" },
  { q: 'subject:"order shipped" -tag:kind=news' },
  { q: "tag:kind=receipt status:delivered after:2026-01-01 before:2026-01-03" },
  { q: "-tag:kind=receipt" },
  { q: '"order" -direction:inbound' },
  { q: "status:bounce" },
  { q: "direction:inbound unknown:term" },
];

