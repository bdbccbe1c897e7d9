import { randomBytes } from "node:crypto";

/** Everything the contrarian reads from its environment, read once. */
export interface ContrarianConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Base of attachment urls; defaults to http://host:port once listening. */
  publicUrl: string | null;
  /** The account-wide key: every project, the project named in X-Service-Product. */
  accountKey: string;
  /** External ids of the account's projects, each seeded with a verified domain, templates and suppressions. */
  projects: string[];
  /** Time between two lifecycle steps of a message. */
  stepMs: number;
  /** Time after which a new domain's records verify by themselves. */
  domainVerifyMs: number;
  /** Delays before each retry of a webhook delivery that did not get a 2xx. */
  webhookRetryMs: number[];
  webhookTimeoutMs: number;
  /** Fixed window rate limit per key: `rateLimit` requests per `rateWindowMs`. */
  rateLimit: number;
  rateWindowMs: number;
  defaultPageSize: number;
  /** One line per request on stdout (method, path, status). */
  logRequests: boolean;
}

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number ≥ 0, got "${value}"`);
  return n;
}

export function readConfig(env: Record<string, string | undefined> = process.env): ContrarianConfig {
  const projects = (env.CONTRARIAN_PROJECTS ?? "orbit.live,orbit~trial")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (projects.length === 0) throw new Error("CONTRARIAN_PROJECTS names no project");
  const retries = (env.CONTRARIAN_WEBHOOK_RETRY_MS ?? "700,2100,6300")
    .split(",")
    .filter((s) => s.trim() !== "")
    .map((s) => int(s, 0, "CONTRARIAN_WEBHOOK_RETRY_MS"));
  return {
    host: env.CONTRARIAN_HOST || "127.0.0.1",
    port: int(env.CONTRARIAN_PORT, 4020, "CONTRARIAN_PORT"),
    publicUrl: env.CONTRARIAN_PUBLIC_URL || null,
    accountKey: env.CONTRARIAN_ACCOUNT_KEY || `ctr-acct-${randomBytes(18).toString("hex")}`,
    projects,
    stepMs: int(env.CONTRARIAN_STEP_MS, 1000, "CONTRARIAN_STEP_MS"),
    domainVerifyMs: int(env.CONTRARIAN_DOMAIN_VERIFY_MS, 3000, "CONTRARIAN_DOMAIN_VERIFY_MS"),
    webhookRetryMs: retries,
    webhookTimeoutMs: int(env.CONTRARIAN_WEBHOOK_TIMEOUT_MS, 5000, "CONTRARIAN_WEBHOOK_TIMEOUT_MS"),
    rateLimit: int(env.CONTRARIAN_RATE_LIMIT, 1000, "CONTRARIAN_RATE_LIMIT"),
    rateWindowMs: int(env.CONTRARIAN_RATE_WINDOW_MS, 10_000, "CONTRARIAN_RATE_WINDOW_MS"),
    defaultPageSize: int(env.CONTRARIAN_DEFAULT_PAGE_SIZE, 3, "CONTRARIAN_DEFAULT_PAGE_SIZE"),
    logRequests: env.CONTRARIAN_LOG_REQUESTS === "1",
  };
}
