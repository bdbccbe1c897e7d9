import { z } from "zod";
import { emailAddress } from "./common";

/**
 * "Erase this recipient's data": the address is in the path; the body repeats it, so a request
 * aimed at one address can never erase another (a stale tab, a mistyped link).
 */
export const eraseRecipientRequest = z.object({ confirmEmail: emailAddress });
export type EraseRecipientRequest = z.infer<typeof eraseRecipientRequest>;

/** What the erasure removed from the dashboard's own records. */
export const erasureResult = z.object({
  messagesDeleted: z.number().int(),
  messagesStripped: z.number().int(),
  /** Other records where the address was written (kept messages' subjects and bodies, events, batch rows, contacts): now its hash. */
  redacted: z.number().int(),
  contacts: z.number().int(),
  batchRows: z.number().int(),
  templateSamples: z.number().int(),
  /** Saved views (of Messages) whose name or search named the address: deleted. */
  savedViews: z.number().int(),
  auditEntries: z.number().int(),
});
export type ErasureResult = z.infer<typeof erasureResult>;
