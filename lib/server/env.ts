import "server-only";
import { z } from "zod";
import { emailAddress } from "@/lib/schemas/common";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { isAddressOrRange } from "@/lib/net/ip-ranges";

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

/** A whole number, or unset (undefined) for a default derived from other variables where it is used. */
const optionalCount = (least: 0 | 1) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? Number(v) : undefined))
    .pipe(
      z
        .number({ error: "must be a number" })
        .int({ error: "must be a whole number" })
        .min(least, { error: least ? "must be a positive number" : "must be 0 or more" })
        .optional(),
    );

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL like http://127.0.0.1:4010" });

/** `Alerts <alerts@acme.com>` or `alerts@acme.com`. */
const alertFrom = z.string().transform((v, ctx) => {
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(v);
  const email = emailAddress.safeParse(named ? named[2] : v);
  if (!email.success) {
    ctx.addIssue({ code: "custom", message: "must be an address like alerts@acme.com or Alerts <alerts@acme.com>" });
    return z.NEVER;
  }
  const name = named?.[1]?.replace(/^"|"$/g, "").trim();
  return name ? { email: email.data, name } : { email: email.data };
});

/**
 * The pre-send checks' worker threads (lib/server/presend/check-pool.ts): each may hold its
 * own heap of this size, so their number bounds the memory one process can spend on checks.
 */
export const MAX_PRESEND_WORKERS = 4;
/** A check worker's own heap: a megabyte of html is about 100 MB of parsed elements at worst. */
export const PRESEND_WORKER_HEAP_MB = 256;

/** `json`: one JSON object per log line (pino, lib/server/log/); `text` (default): the human format. */
const logFormat = optionalText.pipe(z.enum(["text", "json"], { error: "must be text or json" }).optional()).transform((v) => v ?? "text");

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
    /** The longest wait sign-in throttling asks for (the delays grow 1 s, 2 s, 4 s … up to it). */
    LOGIN_THROTTLE_MAX_DELAY_S: positiveInt(300),
    /** Rows the sign-in throttle keeps (one per account, network, pair …); the oldest go first. */
    LOGIN_THROTTLE_MAX_KEYS: positiveInt(100_000),
    /** Seconds after sign-in (or a password re-confirmation) before creating keys or webhooks asks for the password again. */
    REAUTH_MAX_AGE_S: positiveInt(600),
    // Sessions and client addresses (lib/server/auth/sessions.ts, lib/server/http/client-address.ts).
    /** Absolute lifetime of a session, counted from sign-in: 7 days. */
    SESSION_MAX_AGE_S: positiveInt(7 * 24 * 60 * 60),
    /** A session unused this long ends: 12 hours. */
    SESSION_IDLE_S: positiveInt(12 * 60 * 60),
    /** Reverse proxies whose X-Forwarded-For is believed: addresses or CIDR ranges, comma-separated. Unset: none. */
    TRUSTED_PROXIES: optionalText.transform((v, ctx) => {
      const entries = v ? v.split(",").map((s) => s.trim()).filter(Boolean) : [];
      for (const entry of entries) {
        if (!isAddressOrRange(entry)) {
          ctx.addIssue({ code: "custom", message: `"${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, ::1)` });
          return z.NEVER;
        }
      }
      return entries;
    }),
    /** DNS server(s) for the domain screen's live check, "ip[:port]" comma-separated; the system resolver when unset. */
    DNS_RESOLVER: optionalText,
    /** SpamAssassin for the pre-send checks: where spamd listens. Unset = no spam score (the panel says how to enable it). */
    SPAMD_HOST: optionalText,
    SPAMD_PORT: positiveInt(783).pipe(z.number().max(65535, { error: "must be a port number (1-65535)" })),
    /** The whole exchange with spamd (connect, send, read), not an idle timeout. */
    SPAMD_TIMEOUT_MS: positiveInt(10_000),
    // Pre-send checks (lib/server/presend): run in worker threads, off the request thread.
    /** Worker threads for the checks, per dashboard process; unset or 0: half the CPUs, at least 1, at most MAX_PRESEND_WORKERS. */
    PRESEND_WORKERS: wholeNumber(0).pipe(
      z.number().max(MAX_PRESEND_WORKERS, { error: `must be at most ${MAX_PRESEND_WORKERS}: each check's worker may hold a ${PRESEND_WORKER_HEAP_MB} MB heap, and the checks also share the CPUs with every request` }),
    ),
    /** Checks waiting for a worker at most; one more is answered 429. */
    PRESEND_QUEUE: positiveInt(8),
    /** One check's time from its arrival, waiting for a worker included; past it the check is dropped or its worker stopped. */
    PRESEND_TIMEOUT_MS: positiveInt(10_000),
    /** Password checks (lib/server/auth/password-pool.ts): bcrypt compares at once in this process, each in its own worker thread. */
    PASSWORD_WORKERS: positiveInt(2),
    /** Password checks waiting for a worker at most, all users together; one more is refused at once ("too many sign-ins"). */
    PASSWORD_QUEUE: positiveInt(8),
    /** Link checks: requests to links in flight at once in this process, all users together. */
    LINK_CHECK_MAX_IN_FLIGHT: positiveInt(24),
    /** Re-reads of messages from the service (lib/server/message-index/reread-worker.ts): per project and second, per dashboard process. */
    REREAD_RATE_PER_S: positiveInt(10),
    /** Re-reads under way at once per project, per dashboard process. */
    REREAD_CONCURRENCY: positiveInt(4),
    /** A message is read this long after its first event, so a burst of events costs one read. */
    REREAD_COALESCE_MS: positiveInt(1_000),
    /** A read that failed is tried again after this, doubled per failure in a row (2, 4, 8 s … at most 5 minutes). */
    REREAD_RETRY_BASE_MS: positiveInt(1_000),
    /** Polling mode (no working event stream): an unsettled message is read again at most this often. */
    RECONCILE_POLL_S: positiveInt(15),
    /** Messages older than this are not re-read by the reconciler. */
    RECONCILE_MAX_AGE_H: positiveInt(48),
    /** Live mode's safety net: a message unsettled this long is read again, once per this period. */
    RECONCILE_SAFETY_MIN: positiveInt(10),
    /** A connected stream that delivered nothing for a message sent this long ago counts as silent (polling mode). */
    STREAM_SILENT_AFTER_S: positiveInt(30),
    // The public ingest route (lib/server/event-stream/ingest-limits.ts).
    /** One delivery's body at most: 1 MB (a delivery is a few kilobytes). */
    INGEST_MAX_BYTES: positiveInt(1024 * 1024),
    /** Bodies of all deliveries being read or recorded at once, per dashboard process: 8 MB. Past it a delivery gets a 429. */
    INGEST_INFLIGHT_BYTES: positiveInt(8 * 1024 * 1024),
    /**
     * One client address's share of INGEST_INFLIGHT_BYTES (an IPv6 address: its /64), of its
     * large deliveries and again of its small ones, so strangers at a few addresses cannot take
     * the budget the service's deliveries need. Unset: INGEST_MAX_BYTES (1 MB), at most the total.
     */
    INGEST_INFLIGHT_BYTES_PER_ADDRESS: optionalCount(1),
    /**
     * Of INGEST_INFLIGHT_BYTES, what only deliveries declaring at most 64 KB (the service's are a
     * few KB) may hold: larger and chunked ones, which strangers can keep open longest, never
     * take it. Unset: a quarter of INGEST_INFLIGHT_BYTES (2 MB), leaving the rest room for one
     * INGEST_MAX_BYTES delivery.
     */
    INGEST_INFLIGHT_SMALL_BYTES: optionalCount(0),
    /** A delivery's body must arrive within this long (a sender trickling bytes holds nothing for longer). */
    INGEST_BODY_TIMEOUT_MS: positiveInt(10_000),
    // Every other request body, read before Next sees it (lib/server/http/request-body-limits.ts).
    /** Bodies of all requests being received or handled at once, per dashboard process: 64 MB. Past it a request gets a 429. */
    REQUEST_INFLIGHT_BYTES: positiveInt(64 * 1024 * 1024),
    /**
     * One client address's share of the large bodies (over 64 KB) among those (an IPv6 address:
     * its /64), so it takes many addresses to fill the budget. Unset: an eighth of
     * REQUEST_INFLIGHT_BYTES, and never less than 20 MB, room for one largest body.
     */
    REQUEST_INFLIGHT_BYTES_PER_ADDRESS: optionalCount(1),
    /**
     * Of REQUEST_INFLIGHT_BYTES, what only bodies declaring at most 64 KB (sign-in, ordinary
     * JSON writes) may hold, so large bodies can never starve them; one address may hold an
     * eighth of it (at least 64 KB). Unset: an eighth of REQUEST_INFLIGHT_BYTES (8 MB), leaving
     * the rest room for one 20 MB body.
     */
    REQUEST_INFLIGHT_SMALL_BYTES: optionalCount(0),
    /** A body arriving slower than this (bytes per second, over each REQUEST_BODY_WINDOW_MS) is cut off with a 408: 32 KB/s. */
    REQUEST_BODY_MIN_RATE: positiveInt(32 * 1024),
    /** How often a body's progress is checked; a body smaller than the rate allows for one window must arrive within it. */
    REQUEST_BODY_WINDOW_MS: positiveInt(10_000),
    // Batch sends (lib/server/batches).
    /** Chunks of one job in flight at once, per dashboard process. */
    BATCH_WORKERS: positiveInt(8),
    /** A chunk's claim; a dead instance's chunk is taken over after it. */
    BATCH_LEASE_MS: positiveInt(15_000),
    /** How often each instance looks for jobs nobody is sending; unset: a third of the lease, between 0.5 and 5 s. */
    BATCH_SWEEP_MS: optionalCount(1),
    /** Test aid: a pause after each chunk, so a browser test can stop the dashboard halfway through a job. */
    BATCH_CHUNK_PAUSE_MS: wholeNumber(0),
    /** Test aid: a pause between claiming a chunk and sending it, so a test can stop an instance while it holds a claim. */
    BATCH_CHUNK_HOLD_MS: wholeNumber(0),
    // Retention of the dashboard's own records (lib/server/retention).
    /** Index rows (messages with their addresses and events, re-reads, finished batch jobs) older than this are pruned; 0 keeps everything. */
    INDEX_RETENTION_DAYS: wholeNumber(90),
    /** Messages (or batch rows) removed per short transaction. */
    RETENTION_BATCH_SIZE: positiveInt(500),
    /** Pause between two of those transactions, so reads and ingest go on beside a large prune. */
    RETENTION_PAUSE_MS: wholeNumber(200),
    /** How often a pruning pass starts (one instance at a time per database). */
    RETENTION_EVERY_MIN: positiveInt(60),
    /** Insight alerts (lib/server/alerts): a window with fewer messages than this is not judged, so three messages cannot raise an alert. */
    ALERT_MIN_VOLUME: positiveInt(100),
    /** Seconds between two checks of every project's rates, per dashboard process (one check at a time per database). */
    ALERT_CHECK_INTERVAL_S: positiveInt(60),
    /** Sender of alert emails, `Name <address>` or an address on a verified domain of each project; unset: `alerts@` the project's first verified domain. */
    ALERT_FROM: optionalText.pipe(alertFrom.optional()),
    /** A webhook for every project's alerts (a project's own, set on its Alerts screen, replaces it), signed with ALERT_WEBHOOK_SECRET. */
    ALERT_WEBHOOK_URL: optionalText.pipe(httpUrl.optional()),
    ALERT_WEBHOOK_SECRET: optionalText.pipe(z.string().min(24, { error: "must be at least 24 characters (e.g. whsec_ and base64 of 24 random bytes)" }).optional()),
    NODE_ENV: optionalText,

    // ── Security limits (issue 12) ─────────────────────────────────────────────────
    /**
     * The dashboard's own fetches of URLs someone else chose (contract/net/destination.ts): never
     * loopback, private, link-local or metadata addresses, unless a `host[:port]` is listed
     * here, or OUTBOUND_ALLOW_PRIVATE opens the private ranges (development).
     */
    OUTBOUND_ALLOW_HOSTS: optionalText.transform((v) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : [])),
    OUTBOUND_ALLOW_PRIVATE: optionalText.pipe(z.enum(["true", "false", "1", "0"], { error: "must be true or false" }).optional()).transform((v) => v === "true" || v === "1"),

    // ── Observability (issue 29) ───────────────────────────────────────────────────
    /** Bearer token for GET /api/metrics (lib/server/metrics/); unset, the route answers 404. At least 24 characters: it guards a scrape anyone could try. */
    METRICS_TOKEN: optionalText.pipe(z.string().min(24, { error: "must be at least 24 characters (e.g. 32 random bytes as base64url)" }).optional()),
    /** `json`: one JSON object per log line (pino, lib/server/log/); `text` (default): the human format. */
    LOG_FORMAT: logFormat,
  })
  .superRefine((v, ctx) => {
    // Less, and the largest requests (a send with 10 MB of attachments, a 15 MB file) would be refused every time.
    if (v.REQUEST_INFLIGHT_BYTES < MAX_REQUEST_BYTES) {
      ctx.addIssue({ code: "custom", path: ["REQUEST_INFLIGHT_BYTES"], message: `must be at least ${MAX_REQUEST_BYTES} (20 MB, the largest request body)` });
    }
    const requestShare = v.REQUEST_INFLIGHT_BYTES_PER_ADDRESS;
    if (requestShare !== undefined && (requestShare < MAX_REQUEST_BYTES || requestShare > v.REQUEST_INFLIGHT_BYTES)) {
      ctx.addIssue({ code: "custom", path: ["REQUEST_INFLIGHT_BYTES_PER_ADDRESS"], message: `must be at least ${MAX_REQUEST_BYTES} (20 MB, the largest request body) and at most REQUEST_INFLIGHT_BYTES` });
    }
    const requestSmall = v.REQUEST_INFLIGHT_SMALL_BYTES;
    if (requestSmall !== undefined && requestSmall > v.REQUEST_INFLIGHT_BYTES - MAX_REQUEST_BYTES) {
      ctx.addIssue({ code: "custom", path: ["REQUEST_INFLIGHT_SMALL_BYTES"], message: `must leave REQUEST_INFLIGHT_BYTES room for the largest request body (${MAX_REQUEST_BYTES}, 20 MB)` });
    }
    const ingestSmall = v.INGEST_INFLIGHT_SMALL_BYTES;
    if (ingestSmall !== undefined && ingestSmall > v.INGEST_INFLIGHT_BYTES - v.INGEST_MAX_BYTES) {
      ctx.addIssue({ code: "custom", path: ["INGEST_INFLIGHT_SMALL_BYTES"], message: "must leave INGEST_INFLIGHT_BYTES room for one INGEST_MAX_BYTES delivery" });
    }
    const ingestShare = v.INGEST_INFLIGHT_BYTES_PER_ADDRESS;
    if (ingestShare !== undefined && (ingestShare < v.INGEST_MAX_BYTES || ingestShare > v.INGEST_INFLIGHT_BYTES)) {
      // Less than one delivery's largest body, and the service could never send one; more than the total means nothing.
      ctx.addIssue({ code: "custom", path: ["INGEST_INFLIGHT_BYTES_PER_ADDRESS"], message: "must be at least INGEST_MAX_BYTES and at most INGEST_INFLIGHT_BYTES" });
    }
    if (v.ALERT_WEBHOOK_URL && !v.ALERT_WEBHOOK_SECRET) ctx.addIssue({ code: "custom", path: ["ALERT_WEBHOOK_SECRET"], message: "is required when ALERT_WEBHOOK_URL is set" });
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

export type Env = Omit<Parsed, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "NODE_ENV" | "BATCH_SWEEP_MS"> & {
  /** Set, or well inside a lease, so a dead instance's chunks wait about one lease. */
  BATCH_SWEEP_MS: number;
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
    BATCH_SWEEP_MS: rest.BATCH_SWEEP_MS ?? Math.max(500, Math.min(5_000, Math.floor(rest.BATCH_LEASE_MS / 3))),
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

/**
 * LOG_FORMAT alone, for when the rest of the environment does not validate: the start that
 * fails then reports it in the format asked for (lib/server/log/json-log.ts). Text when unset or invalid.
 */
export function logFormatSetting(source: Record<string, string | undefined> = process.env): "text" | "json" {
  const result = logFormat.safeParse(source.LOG_FORMAT);
  return result.success ? result.data : "text";
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
