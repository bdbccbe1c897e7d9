import { z } from "zod";

/** The project headers, documented on the operations that list them. */
export const projectHeaders = z.object({
  "x-service-product": z.string().optional(),
  "x-service-sender": z.string().optional(),
});

export const idempotencyHeaders = z.object({
  "idempotency-key": z.string().min(1).max(255).optional(),
});
