import type { EventType } from "../../contract/wire";
import type { AddressRow } from "../db/schema";

/**
 * Sandbox delivery: nothing leaves the machine. The outcome follows the local part of the
 * first recipient (to, then cc, then bcc) that names one, ignoring case and a `+label`
 * (`bounce+signup@x.test` bounces). Any other address is delivered.
 */
export const SANDBOX_OUTCOMES = [
  "delivered", "bounce", "softbounce", "delayed", "complaint", "opened", "clicked", "reject", "fail",
] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** One step after `sending`; steps are `SERVICE_SANDBOX_STEP_MS` apart. */
export type SandboxStep = {
  type: EventType;
  data: Record<string, unknown>;
  /** A hard bounce or complaint adds a suppression for the recipient. */
  suppress?: "bounce" | "complaint";
};

export function sandboxOutcome(recipients: AddressRow[]): { outcome: SandboxOutcome; recipient: string } {
  for (const r of recipients) {
    const local = r.email.slice(0, r.email.lastIndexOf("@")).split("+")[0].toLowerCase();
    if ((SANDBOX_OUTCOMES as readonly string[]).includes(local)) return { outcome: local as SandboxOutcome, recipient: r.email };
  }
  return { outcome: "delivered", recipient: recipients[0]?.email ?? "" };
}

/** The first link of the html (what a recipient would click), else of the text. */
export function firstLink(html: string | null, text: string | null): string | null {
  const href = html && /<a\b[^>]*\bhref\s*=\s*["']([^"']+)["']/i.exec(html);
  if (href) return href[1];
  const bare = text && /https?:\/\/[^\s<>"')]+/i.exec(text);
  return bare ? bare[0] : null;
}

/** The events a sandbox delivery records, in order, for a message's recipients and content. */
export function sandboxPlan(recipients: AddressRow[], content: { html: string | null; text: string | null }): SandboxStep[] {
  const { outcome, recipient } = sandboxOutcome(recipients);
  const sent: SandboxStep = { type: "sent", data: { mode: "sandbox", recipients: recipients.map((r) => r.email) } };
  const delivered: SandboxStep = { type: "delivery", data: { recipient, diagnostic: "250 2.0.0 OK (sandbox)" } };
  switch (outcome) {
    case "bounce":
      return [sent, {
        type: "bounce",
        data: { recipient, bounceType: "hard", diagnostic: `550 5.1.1 <${recipient}>: Recipient address rejected: User unknown (sandbox)` },
        suppress: "bounce",
      }];
    case "softbounce":
      return [sent, {
        type: "delivery_delayed",
        data: { recipient, bounceType: "soft", cause: "mailbox_full", diagnostic: "452 4.2.2 Mailbox full, try again later (sandbox)" },
      }, delivered];
    case "delayed":
      return [sent, {
        type: "delivery_delayed",
        data: { recipient, cause: "greylisted", diagnostic: "451 4.7.1 Greylisted, please try again later (sandbox)" },
      }, delivered];
    case "complaint":
      return [sent, delivered, { type: "complaint", data: { recipient, feedbackType: "abuse" }, suppress: "complaint" }];
    case "opened":
      return [sent, delivered, { type: "open", data: { recipient, userAgent: "Sandbox Mail/1.0" } }];
    case "clicked":
      return [sent, delivered, { type: "open", data: { recipient, userAgent: "Sandbox Mail/1.0" } }, {
        type: "click",
        data: { recipient, link: firstLink(content.html, content.text) ?? "https://example.com/", userAgent: "Sandbox Mail/1.0" },
      }];
    case "reject":
      // Refused by the provider before it is sent, as a content or policy filter would.
      return [{ type: "rejected", data: { recipient, reason: "policy", diagnostic: "554 5.7.1 Message rejected by policy (sandbox)" } }];
    case "fail":
      return [{ type: "failed", data: { recipient, error: "Simulated delivery failure (sandbox)" } }];
    default:
      return [sent, delivered];
  }
}
