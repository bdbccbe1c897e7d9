import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { standardSignature } from "./ingest-load";

const SECRET = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;

describe("the ingest benchmark's signatures", () => {
  it("are the Standard Webhooks signature the package makes, and verify", () => {
    const at = new Date("2026-11-24T12:00:00.600Z");
    const body = JSON.stringify({ type: "delivery", data: { messageId: "msg_1", subject: "Grüße" } });
    const signature = standardSignature(SECRET, "msg_1_delivery", at, body);
    expect(signature).toBe(new Webhook(SECRET).sign("msg_1_delivery", at, body));
    const headers = { "webhook-id": "msg_1_delivery", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "" };
    headers["webhook-signature"] = standardSignature(SECRET, headers["webhook-id"], new Date(), body);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
    expect(standardSignature(SECRET, "another_id", at, body)).not.toBe(signature);
  });
});
