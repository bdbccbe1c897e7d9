import { z } from "zod";
import { emailAddress, page } from "./common";

import { SUPPRESSION_REASONS } from "./words";

export { SUPPRESSION_REASONS };
export const suppressionReason = z.enum(SUPPRESSION_REASONS, {
  error: `must be one of: ${SUPPRESSION_REASONS.join(", ")}`,
});

export const addSuppressionRequest = z.object({
  email: emailAddress,
  reason: suppressionReason.optional(),
});
export type AddSuppressionRequest = z.infer<typeof addSuppressionRequest>;

export const suppression = z.object({
  email: z.string(),
  reason: z.string(),
  createdAt: z.string(),
  /** Local-service extra: the message whose bounce or complaint added it. */
  messageId: z.string().nullable().optional(),
});
export type Suppression = z.infer<typeof suppression>;

