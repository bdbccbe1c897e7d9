import "server-only";
import { redactUrlsIn } from "@/contract/log/redact-url";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { and, desc, eq, gte, ilike, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { EMAIL_PATTERN } from "@/lib/schemas/common";
import type { AuditEntry, AuditPage, AuditQueryParsed } from "@/lib/schemas/audit";
import { db } from "./db";
import { auditLog } from "./db/schema/core";
import { addressHash } from "./redaction/address-hash";
import { withProjectRedactor, type Redactor } from "./redaction/redactor";

/** Who did it. An `Actor` fits; `SYSTEM_ACTOR` is used for start-up tasks. */
export type AuditActor = { id: string | null; email: string };
export const SYSTEM_ACTOR: AuditActor = { id: null, email: "system" };

export type AuditInput = {
  actor: AuditActor;
  action: string;
  /** External id of the project concerned. */
  project?: string | null;
  /** What was acted on: a user's email, a webhook id, a domain name. */
  target?: string | null;
  outcome: "success" | "failure";
  detail?: Record<string, unknown>;
};

// "apiKey", "api_key", "signingSecret", "password", "accessToken"...; "keyId" or "keyName" stay.
const SECRET_KEY = /secret|passw|token|authorization|cookie|credential|key$/i;
const REDACTED = "[redacted]";

/**
 * Removes anything named like a secret, at any depth, and masks the credentials of every URL
 * in any text (redactUrlsIn). The audit log is never a place for one.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      // The key is dropped, not just masked: even its presence can say too much.
      if (SECRET_KEY.test(k)) continue;
      out[k] = redact(v, depth + 1);
    }
    return out;
  }
  if (typeof value === "string") return redactUrlsIn(value.length > 2000 ? `${value.slice(0, 2000)}…` : value);
  return value;
}

/** The row of an entry: secrets removed, URLs masked, and the project's erased addresses left out. */
function rowOf(input: AuditInput, erased: Redactor) {
  return {
    actorId: input.actor.id,
    actorEmail: input.actor.email,
    action: input.action,
    project: input.project ?? null,
    target: input.target == null ? null : redactUrlsIn(erased.text(input.target)),
    outcome: input.outcome,
    detail: erased.json(redact(input.detail ?? {})) as Record<string, unknown>,
  };
}

/** An address erased in the project is not written, whoever acts (lib/server/redaction/redactor.ts). */
export async function recordAudit(input: AuditInput): Promise<void> {
  await withProjectRedactor(await db(), input.project ?? null, async (tx, erased) => {
    await tx.insert(auditLog).values(rowOf(input, erased));
  });
}

/**
 * One entry that counts repeats (a flood of throttled sign-ins): the first call writes it
 * under `id`, later calls with the same id replace its detail when their `count` is higher, so
 * racing callers leave the highest count. The entry keeps the time of the first.
 */
export async function recordAuditCount(id: string, input: AuditInput & { detail: { count: number } }): Promise<void> {
  await withProjectRedactor(await db(), input.project ?? null, async (tx, erased) => {
    await tx
      .insert(auditLog)
      .values({ id, ...rowOf(input, erased) })
      .onConflictDoUpdate({
        target: auditLog.id,
        set: { detail: sql`case when coalesce((${auditLog.detail}->>'count')::int, 0) < (excluded.detail->>'count')::int then excluded.detail else ${auditLog.detail} end` },
      });
  });
}

/**
 * Runs a write and records its outcome: success with `detail`, or failure with the error
 * code. The error is rethrown unchanged. Use it around every write the dashboard makes.
 */
export async function withAudit<T>(input: Omit<AuditInput, "outcome">, write: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await write();
  } catch (e) {
    const code = e instanceof AppError ? e.code : "internal_error";
    const message = e instanceof AppError ? e.message : undefined;
    await recordAudit({ ...input, outcome: "failure", detail: { ...input.detail, error: code, message } }).catch(
      (auditError) => console.error(`audit: could not record a failure: ${safeErrorSummary(auditError)}`),
    );
    throw e;
  }
  await recordAudit({ ...input, outcome: "success" });
  return result;
}

/** Cursor: the `seq` of the last row listed, base64url so it stays opaque in URLs. */
function encodeCursor(row: { seq: number }): string {
  return Buffer.from(`a${row.seq}`).toString("base64url");
}
function decodeCursor(cursor: string): number {
  const match = /^a(\d{1,18})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new AppError(400, "invalid_request", "cursor: is not valid", "cursor");
  return Number(match[1]);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `q` is read with `auditQuery` by the route or the page. */
export async function listAudit(q: AuditQueryParsed): Promise<AuditPage> {
  const where: SQL[] = [];
  if (q.action) where.push(eq(auditLog.action, q.action));
  if (q.actorId) where.push(eq(auditLog.actorId, q.actorId));
  if (q.project) where.push(eq(auditLog.project, q.project));
  if (q.outcome) where.push(eq(auditLog.outcome, q.outcome));
  if (q.from) where.push(gte(auditLog.at, new Date(q.from)));
  if (q.to) where.push(lte(auditLog.at, new Date(q.to)));
  if (q.q) {
    const pattern = `%${escapeLike(q.q)}%`;
    where.push(
      or(
        ilike(auditLog.action, pattern),
        ilike(auditLog.actorEmail, pattern),
        ilike(auditLog.project, pattern),
        ilike(auditLog.target, pattern),
        ilike(sql`${auditLog.detail}::text`, pattern),
        // An erased address is kept only as its keyed hash: searching the address finds it.
        ...(EMAIL_PATTERN.test(q.q.trim()) ? [eq(auditLog.target, addressHash(q.q))] : []),
      )!,
    );
  }
  if (q.cursor) {
    // Newest first by insertion order, so no row is skipped or repeated between pages.
    where.push(lt(auditLog.seq, decodeCursor(q.cursor)));
  }
  const d = await db();
  const rows = await d
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.seq))
    .limit(q.limit + 1);
  const pageRows = rows.slice(0, q.limit);
  const data: AuditEntry[] = pageRows.map((r) => ({
    id: r.id,
    at: r.at.toISOString(),
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    action: r.action,
    project: r.project,
    // Masked again on the way out: entries written before URLs were masked on the way in.
    target: r.target === null ? null : redactUrlsIn(r.target),
    outcome: r.outcome,
    detail: (redact(r.detail ?? {}) as Record<string, unknown>) ?? {},
  }));
  const last = pageRows[pageRows.length - 1];
  return { data, nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null };
}
