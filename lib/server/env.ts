import "server-only";
import { z } from "zod";
import { emailAddress } from "@/lib/schemas/common";

/**
 * The one reader of `process.env`. Validated lazily on first use, so `next build` works
 * without a full environment; `instrumentation.ts` calls it at start so a bad value stops
 * the server with a message naming the variable.
 */
const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const positiveInt = (fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).positive({ error: "must be a positive number" }));

/** A whole number from 0; `0` usually switches the feature off. */
const wholeNumber = (fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : fallback))
    .pipe(z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(0, { error: "must be 0 or more" }));

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL like http://127.0.0.1:4010" });

const schema = z
  .object({
    SERVICE_URL: z.string({ error: "is required (the email service base URL)" }).trim().pipe(httpUrl),
    SERVICE_API_KEY: z.string({ error: "is required (the account-wide API key)" }).trim().min(1, { error: "is required" }),
    SERVICE_PROJECTS: optionalText.transform((v) =>
      v ? [...new Set(v.split(",").map((s) => s.trim()).filter(Boolean))] : [],
    ),
    SERVICE_TIMEOUT_MS: positiveInt(10_000),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// or postgresql:// URL" })
        .optional(),
    ),
    DASHBOARD_DATA_DIR: optionalText.transform((v) => v ?? ".data/dashboard"),
    AUTH_SECRET: z
      .string({ error: "is required (at least 32 characters; e.g. `openssl rand -base64 32`)" })
      .min(32, { error: "must be at least 32 characters" }),
    PUBLIC_URL: optionalText.transform((v) => v ?? "http://localhost:3000").pipe(httpUrl),
    ADMIN_EMAIL: optionalText.pipe(emailAddress.optional()),
    ADMIN_PASSWORD: optionalText.pipe(z.string().min(8, { error: "must be at least 8 characters" }).optional()),
    OIDC_ISSUER: optionalText.pipe(httpUrl.optional()),
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    LOGIN_THROTTLE_MAX: positiveInt(5),
    LOGIN_THROTTLE_WINDOW_S: positiveInt(900),
    /** Seconds after sign-in (or a password re-confirmation) before creating keys or webhooks asks for the password again. */
    REAUTH_MAX_AGE_S: positiveInt(600),
    /** DNS server(s) for the domain screen's live check, "ip[:port]" comma-separated; the system resolver when unset. */
    DNS_RESOLVER: optionalText,
    /** SpamAssassin for the pre-send checks: where spamd listens. Unset = no spam score (the panel says how to enable it). */
    SPAMD_HOST: optionalText,
    SPAMD_PORT: positiveInt(783).pipe(z.number().max(65535, { error: "must be a port number (1-65535)" })),
    SPAMD_TIMEOUT_MS: positiveInt(10_000),
    /** Re-reads of messages from the service (lib/server/rereads): per project and second, per dashboard process. */
    REREAD_RATE_PER_S: positiveInt(10),
    /** Re-reads under way at once per project, per dashboard process. */
    REREAD_CONCURRENCY: positiveInt(4),
    /** A message is read this long after its first event, so a burst of events costs one read. */
    REREAD_COALESCE_MS: positiveInt(1_000),
    /** Polling mode (no working event stream): an unsettled message is read again at most this often. */
    RECONCILE_POLL_S: positiveInt(15),
    /** Messages older than this are not re-read by the reconciler. */
    RECONCILE_MAX_AGE_H: positiveInt(48),
    /** Live mode's safety net: a message unsettled this long is read again, once per this period. */
    RECONCILE_SAFETY_MIN: positiveInt(10),
    /** A connected stream that delivered nothing for a message sent this long ago counts as silent (polling mode). */
    STREAM_SILENT_AFTER_S: positiveInt(30),
    // Retention of the dashboard's own records (lib/server/retention).
    /** Index rows (messages with their addresses and events, re-reads, finished batch jobs) older than this are pruned; 0 keeps everything. */
    INDEX_RETENTION_DAYS: wholeNumber(90),
    /** Messages (or batch rows) removed per short transaction. */
    RETENTION_BATCH_SIZE: positiveInt(500),
    /** Pause between two of those transactions, so reads and ingest go on beside a large prune. */
    RETENTION_PAUSE_MS: wholeNumber(200),
    /** How often a pruning pass starts (one instance at a time per database). */
    RETENTION_EVERY_MIN: positiveInt(60),
    NODE_ENV: optionalText,
  })
  .superRefine((v, ctx) => {
    const oidc = { OIDC_ISSUER: v.OIDC_ISSUER, OIDC_CLIENT_ID: v.OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: v.OIDC_CLIENT_SECRET };
    const set = Object.entries(oidc).filter(([, value]) => value !== undefined);
    if (set.length > 0 && set.length < 3) {
      for (const [name, value] of Object.entries(oidc)) {
        if (value === undefined) {
          ctx.addIssue({ code: "custom", path: [name], message: "is required when any OIDC_* variable is set" });
        }
      }
    }
  });

type Parsed = z.output<typeof schema>;

export type Env = Omit<Parsed, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "NODE_ENV"> & {
  /** Present only when all three OIDC_* variables are set. */
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /** Origin of PUBLIC_URL, for same-origin checks. */
  publicOrigin: string;
  isProduction: boolean;
};

/** Thrown for a bad environment; the message lists every variable at fault. */
export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Pure: validates any record of variables. Exported for tests and scripts. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".") || "environment"} ${i.message}`);
    throw new EnvError(problems);
  }
  const v = result.data;
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, NODE_ENV, ...rest } = v;
  return {
    ...rest,
    oidc:
      OIDC_ISSUER && OIDC_CLIENT_ID && OIDC_CLIENT_SECRET
        ? { issuer: OIDC_ISSUER, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET }
        : null,
    publicOrigin: new URL(rest.PUBLIC_URL).origin,
    isProduction: NODE_ENV === "production",
  };
}

// On globalThis: Next bundles instrumentation, proxy and routes separately in one process.
const CACHE = Symbol.for("mail-dashboard.env");
type Holder = { [CACHE]?: Env };

export function env(): Env {
  const holder = globalThis as Holder;
  return (holder[CACHE] ??= parseEnv(process.env));
}

/** Tests change variables between cases; production never calls this. */
export function resetEnv(): void {
  delete (globalThis as Holder)[CACHE];
}

/**
 * Development mode, read without validating the rest (the CSP needs it on every request,
 * including before the environment is complete). NODE_ENV is inlined by Next at build.
 */
export const isDevelopment = process.env.NODE_ENV === "development";
