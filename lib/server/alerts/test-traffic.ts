import { recordSentMessages } from "@/lib/server/message-index/record";

/**
 * Ten messages the dashboard sent for a project, the first `bounced` of them bounced: enough
 * volume (tests set ALERT_MIN_VOLUME=5) for the alert checks to judge the bounce rate.
 */
export async function recordBounceTraffic(projectId: string, bounced: number): Promise<void> {
  await recordSentMessages(
    Array.from({ length: 10 }, (_, i) => ({
      projectId,
      messageId: `m${i}`,
      request: { from: { email: "shop@acme.test" }, to: [{ email: `u${i}@gmail.com` }], subject: "Hi", text: "x" },
      sentBy: null,
      idempotencyKey: null,
      source: "dashboard" as const,
      status: i < bounced ? "bounced" : "delivered",
    })),
  );
}
