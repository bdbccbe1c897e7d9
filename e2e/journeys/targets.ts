import { run, serviceKey } from "../support/run";

/**
 * What differs between the services the journeys run against, and nothing else: the journeys
 * themselves are written once. `bundled` is `service/`; `contrarian` is
 * `e2e/contrarian-service/`, which chooses differently wherever the interface is silent (its
 * README lists how). E2E_TARGET, set by the harness, says which one this run talks to.
 */
export interface Target {
  name: "bundled" | "contrarian";
  /** Recipients whose outcome the service decides by address. `u` makes each one unique. */
  address: {
    delivered(u: string): string;
    bounced(u: string): string;
    /** Ends in a final status word that no dashboard knows in advance (or, without one, another final word). */
    unfamiliarFinal(u: string): string;
  };
  /** Text of the reason the service gives for a bounce, as it appears in the message. */
  bounceReason: string;
  /** How the unfamiliar final status reads on screen. */
  unfamiliarStatus: RegExp;
  /**
   * Upper limit for a message with that status to stop showing itself in progress. With an
   * unknown word, the dashboard can only tell from time (issue 11: no new events for a while).
   */
  unfamiliarSettlesWithinMs: number;
  /** The service's own status words, to read the truth from the service. */
  truth: { delivered: string[]; bounced: string[]; final: string[] };
  /** A domain name the service verifies by itself, and how long it takes at most. */
  newDomain(u: string): string;
  domainVerifiesWithinMs: number;
  /** A stored template with merge variables: its name, values to fill in, and the subject they render. */
  template: { name: string; fill: Record<string, string>; subject: string; section: string | null };
  /** The id of the message in the service's answer to POST /v1/inbound/simulate (its shape is the service's). */
  simulatedInboundId(answer: unknown): string | undefined;
  /** The service's log of webhook deliveries, when it keeps one a test can read. */
  deliveryLog: (() => Promise<DeliveryAttempt[]>) | null;
}

export interface DeliveryAttempt {
  url: string;
  emailId: string;
  event: string;
  attempt: number;
  status: number | null;
  error: string | null;
  outcome: string;
}

const bundled: Target = {
  name: "bundled",
  address: {
    delivered: (u) => `delivered+${u}@example.com`,
    bounced: (u) => `bounce+${u}@example.com`,
    // The bundled service has no status word outside the dashboard's vocabulary; `fail@` ends in `failed`.
    unfamiliarFinal: (u) => `fail+${u}@example.com`,
  },
  bounceReason: "550 5.1.1",
  unfamiliarStatus: /failed/i,
  unfamiliarSettlesWithinMs: 20_000,
  truth: { delivered: ["delivered"], bounced: ["bounced"], final: ["delivered", "bounced", "complained", "rejected", "failed"] },
  newDomain: (u) => `journey-${u}.test`,
  domainVerifiesWithinMs: 30_000,
  template: { name: "Welcome", fill: { product: "Acme", firstName: "Ada" }, subject: "Welcome to Acme, Ada!", section: null },
  simulatedInboundId: (answer) => (answer as { id?: string } | null)?.id,
  deliveryLog: null,
};

const contrarian: Target = {
  name: "contrarian",
  address: {
    delivered: (u) => `ada+${u}@example.org`,
    bounced: (u) => `bounce+${u}@example.org`,
    unfamiliarFinal: (u) => `expire+${u}@example.org`,
  },
  bounceReason: "550 5.1.10 Recipient address rejected: the contrarian knows no such mailbox",
  unfamiliarStatus: /expired/i,
  // A minute without change (the dashboard's rule for words it does not know), and some margin.
  unfamiliarSettlesWithinMs: 100_000,
  truth: { delivered: ["delivery_succeeded"], bounced: ["hard_bounce"], final: ["delivery_succeeded", "hard_bounce", "spam_complaint", "expired", "blocked"] },
  newDomain: (u) => `journey-${u}.example.net`,
  domainVerifiesWithinMs: 30_000,
  template: { name: "Hello aboard", fill: { company: "Acme", firstName: "Ada" }, subject: "Welcome to Acme, Ada!", section: "items" },
  simulatedInboundId: (answer) => (answer as { inbound?: { messageId?: string } } | null)?.inbound?.messageId,
  deliveryLog: async () => {
    const response = await fetch(`${run.serviceURL}/__contrarian/deliveries`, { headers: { Authorization: `Bearer ${serviceKey()}` } });
    if (!response.ok) throw new Error(`GET /__contrarian/deliveries: HTTP ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: DeliveryAttempt[] }).data;
  },
};

function current(): Target {
  const name = process.env.E2E_TARGET ?? "bundled";
  if (name === "bundled") return bundled;
  if (name === "contrarian") return contrarian;
  throw new Error(`E2E_TARGET names no known service: ${name}`);
}

export const target = current();
