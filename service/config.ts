import { z } from "zod";

/**
 * The local service's own configuration. It is a separate program from the dashboard,
 * so it reads its own environment here (and only here).
 */
const msList = z
  .string()
  .transform((v) => v.split(",").map((s) => Number(s.trim())))
  .pipe(z.array(z.number().int().nonnegative()).min(1));

/** "a, b:8080" → ["a", "b:8080"]. */
const hostList = z.string().transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean));
const flag = z.enum(["true", "false", "1", "0", ""]).transform((v) => v === "true" || v === "1");

const schema = z.object({
  SERVICE_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  SERVICE_HOST: z.string().default("127.0.0.1"),
  SERVICE_DATA_DIR: z.string().default(".data/service"),
  SERVICE_DATABASE_URL: z.string().url().optional(),
  SERVICE_ENV_FILE: z.string().default(".env.local"),
  SERVICE_PUBLIC_URL: z.string().url().optional(),
  SERVICE_SMTP_URL: z.string().optional(),
  SERVICE_SMTP_INBOUND_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** "ip" or "ip:port" of the DNS server domain checks ask (Node's resolver takes addresses only). */
  SERVICE_DNS_RESOLVER: z
    .string()
    .regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d{1,5})?$/, { error: "must be an IP address with an optional port, e.g. 127.0.0.1:5353" })
    .optional(),
  SERVICE_DOMAIN_CHECK_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  SERVICE_DOMAIN_VERIFY_DEADLINE_MS: z.coerce.number().int().positive().default(72 * 3600_000),
  SERVICE_SANDBOX_STEP_MS: z.coerce.number().int().nonnegative().default(1200),
  SERVICE_WEBHOOK_RETRY_SCHEDULE: msList.default([5_000, 30_000, 120_000, 600_000, 1_800_000, 7_200_000]),
  SERVICE_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Webhook destinations (SSRF): loopback, private, link-local, unique-local and metadata
   * addresses are refused by default. `host` or `host:port` entries listed here are allowed
   * whatever they resolve to (npm start lists the dashboard's own address); ALLOW_PRIVATE
   * opens the private ranges for development (metadata addresses stay refused).
   */
  SERVICE_WEBHOOK_ALLOW_HOSTS: hostList.default([]),
  SERVICE_WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  SERVICE_RATE_LIMIT: z.coerce.number().int().positive().default(100),
  SERVICE_RATE_BURST: z.coerce.number().int().positive().optional(),
  SERVICE_WORKER_POLL_MS: z.coerce.number().int().positive().default(200),
  /** How long after a demo project's first endpoint is created its history's hand-over starts (seed/replay.ts). */
  SERVICE_DEMO_REPLAY_DELAY_MS: z.coerce.number().int().nonnegative().default(3000),
  SERVICE_FAULT_BATCH_EVERY: z.coerce.number().int().nonnegative().default(0),
  SERVICE_SEED: z.enum(["auto", "off"]).default("auto"),
  /** `off` seeds the base demo without its 30-day history (service/seed/). */
  SERVICE_SEED_HISTORY: z.enum(["on", "off"]).default("on"),
});

export type ServiceConfig = z.infer<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid service configuration:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, ...overrides };
}

/** Configuration for in-process tests: fast timings, no seeding, no env file. */
export function testConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return loadConfig({}, {
    SERVICE_SANDBOX_STEP_MS: 0,
    SERVICE_WEBHOOK_RETRY_SCHEDULE: [50, 100, 200],
    SERVICE_WORKER_POLL_MS: 20,
    // The tests' receivers hold a delivery until they know the secret (seed/test-receiver.ts).
    SERVICE_DEMO_REPLAY_DELAY_MS: 0,
    SERVICE_RATE_LIMIT: 10_000,
    SERVICE_SEED: "off",
    ...overrides,
  });
}
