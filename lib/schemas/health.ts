import { z } from "zod";

/** Whether the email service answers, for the banner every screen shows. */
export const HEALTH_STATES = ["up", "slow", "down"] as const;
/** Why the dashboard cannot use the service (lib/server/service/access-check.ts). */
export const HEALTH_PROBLEMS = ["unreachable", "key_refused", "unknown_project", "failing"] as const;
export const serviceHealth = z.object({
  state: z.enum(HEALTH_STATES),
  latencyMs: z.number().nullable().optional().default(null),
  problem: z.enum(HEALTH_PROBLEMS).nullable().optional().default(null),
  /** One sentence naming what is wrong, with what the service said. */
  reason: z.string().nullable().optional().default(null),
});
export type ServiceHealthView = z.infer<typeof serviceHealth>;
/** A reading and when it was taken (ms since epoch): the server renders the banner from it. */
export type TakenHealth = { value: ServiceHealthView; at: number };

/** `GET /api/health` answers `{ service: {state, latencyMs, problem, reason} }`; a bare object is read too. */
export const healthResponse = z.preprocess(
  (body) => (typeof body === "object" && body !== null && "service" in body ? (body as { service: unknown }).service : body),
  serviceHealth,
);
