import { z } from "zod";

/** Whether the email service answers, for the banner every screen shows. */
export const HEALTH_STATES = ["up", "slow", "down"] as const;
export const serviceHealth = z.object({
  state: z.enum(HEALTH_STATES),
  latencyMs: z.number().nullable().optional().default(null),
});
export type ServiceHealthView = z.infer<typeof serviceHealth>;

/** `GET /api/health` answers `{ service: {state, latencyMs} }`; a bare `{state, latencyMs}` is read too. */
export const healthResponse = z.preprocess(
  (body) => (typeof body === "object" && body !== null && "service" in body ? (body as { service: unknown }).service : body),
  serviceHealth,
);
