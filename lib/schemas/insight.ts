import { z } from "zod";

/** One address's engagement with the project's mail (the recipient view), counted per message from the `open` and `click` events. */
export const recipientEngagement = z.object({
  /** Outbound messages to the address (to, cc or bcc). */
  received: z.number(),
  delivered: z.number(),
  /** Messages opened (an open or a click event), each once. */
  opened: z.number(),
  clicked: z.number(),
  lastOpenAt: z.string().nullable(),
  lastClickAt: z.string().nullable(),
});
export type RecipientEngagement = z.infer<typeof recipientEngagement>;

/** A project's alert thresholds as rates (0.02 is 2 %): the screens colour rates against them (lib/insight/thresholds.ts). */
export const thresholdsView = z.object({ bounceWarning: z.number(), bounceLimit: z.number(), complaintWarning: z.number(), complaintLimit: z.number() });
export type ThresholdsView = z.infer<typeof thresholdsView>;
