/**
 * One message as the service answers `GET /v1/emails/msg_1`, for the tests of the message
 * read (the app route and the read's door before Next).
 */
export const SERVICE_MESSAGE = {
  id: "msg_1",
  from: "shop@example.com",
  to: ["ada@example.com"],
  subject: "Your order",
  status: "delivered",
  direction: "outbound",
  createdAt: "2026-01-01T00:00:00Z",
  events: [{ type: "queued" }, { type: "delivery", createdAt: "2026-01-01T00:00:01Z" }],
};
