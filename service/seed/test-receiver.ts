import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { webhookDeliveryBody, type WebhookPayload } from "../../contract/wire";

/** One event received: a delivery's own, or one of a list's (its id then `<webhook-id>#<index>`, as the dashboard keys it). */
export type Delivery = { id: string; payload: WebhookPayload; at: number };

/** How long a delivery that arrives before the secret is known waits for it before it is refused. */
const SECRET_WAIT_MS = 10_000;

/**
 * A webhook receiver for the demo tests: verifies each signature (Standard Webhooks) once the
 * secret is known, answers after `delayMs`, keeps each event it received (`deliveries`), and
 * counts its requests and the most it had in flight at once. A delivery
 * that arrives before the test has stored the secret (the hand-over may start at once, the tests'
 * SERVICE_DEMO_REPLAY_DELAY_MS being 0) waits for it, as a real receiver's lookup would: the
 * outcome never depends on which comes first.
 */
export async function startSignedReceiver(opts: { delayMs?: number } = {}) {
  const deliveries: Delivery[] = [];
  const rejected: string[] = [];
  let secret: string | null = null;
  let secretKnown: () => void = () => {};
  const secretStored = new Promise<void>((resolve) => (secretKnown = resolve));
  const secretOrTimeout = () => Promise.race([secretStored, new Promise<void>((resolve) => setTimeout(resolve, SECRET_WAIT_MS).unref())]);
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  const listeners = new Set<(d: Delivery) => void>();
  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      setTimeout(async () => {
        if (!secret) await secretOrTimeout();
        inFlight--;
        try {
          if (!secret) throw new Error("no secret yet");
          const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, String(req.headers[h] ?? "")]));
          const received = webhookDeliveryBody.parse(new Webhook(secret).verify(body, headers));
          requests++;
          const events = Array.isArray(received) ? received.map((payload, i) => ({ id: `${headers["webhook-id"]}#${i}`, payload })) : [{ id: headers["webhook-id"], payload: received }];
          for (const event of events) {
            const delivery = { ...event, at: Date.now() };
            deliveries.push(delivery);
            for (const listener of listeners) listener(delivery);
          }
          res.statusCode = 204;
        } catch (error) {
          rejected.push(error instanceof Error ? error.message : String(error));
          res.statusCode = 401;
        }
        res.end();
      }, opts.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    rejected,
    get maxInFlight() { return maxInFlight; },
    /** Requests verified and taken. */
    get requests() { return requests; },
    setSecret: (s: string) => {
      secret = s;
      secretKnown();
    },
    onDelivery: (listener: (d: Delivery) => void) => listeners.add(listener),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SignedReceiver = Awaited<ReturnType<typeof startSignedReceiver>>;
