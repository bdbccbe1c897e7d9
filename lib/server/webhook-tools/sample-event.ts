import "server-only";
import { randomUUID } from "node:crypto";
import type { WebhookPayload } from "@/contract/wire/webhooks";
import type { EventType } from "@/contract/wire/words";

/**
 * The sample event "Test an endpoint" sends: the delivery shape both programs share
 * (contract/wire/webhooks.ts), with made-up values a receiver can tell from real mail — an id
 * that says it is a test and addresses under example.com (RFC 2606), never anyone's.
 */
export function sampleEvent(type: EventType, project: string, at = new Date()): WebhookPayload {
  const inbound = type.startsWith("inbound_");
  return {
    type,
    createdAt: at.toISOString(),
    data: {
      messageId: `test_${randomUUID()}`,
      project,
      direction: inbound ? "inbound" : "outbound",
      from: inbound ? "sender@example.com" : "shop@example.com",
      to: [inbound ? "support@example.com" : "recipient@example.com"],
      subject: "Test event from the dashboard",
      status: type,
      eventData: { test: true },
    },
  };
}
