/** Limits of the interface: the local service enforces them and the dashboard states them to its users. */
export const MAX_BATCH_SIZE = 100;
/** Decoded bytes of all attachments of one message. */
export const MAX_ATTACHMENTS_BYTES = 10 * 1024 * 1024;
/** Any request body, as sent on the wire (base64 attachments included). */
export const MAX_REQUEST_BYTES = 20 * 1024 * 1024;
export const MAX_RECIPIENTS = 50;
export const IDEMPOTENCY_TTL_HOURS = 24;
