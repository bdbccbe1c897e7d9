import "server-only";
import { eq } from "drizzle-orm";
import { readBodyBytes, BodyTooLargeError } from "@/contract/http/read-body";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { isAppError } from "@/lib/errors";
import type { DueGate } from "@/contract/db/due-gate";
import { db, dueGate, type Db } from "@/lib/server/db";
import { projects } from "@/lib/server/db/schema/core";
import { env } from "@/lib/server/env";
import { allDomains } from "@/lib/server/domains/manage";
import { service } from "@/lib/server/service";
import { roomBeforeDownload, type DmarcCaps } from "./caps";
import { DMARC_LIMITS } from "./limits";
import { parseReport } from "./parse";
import { claimDmarcJob, finishDmarcJob, nextDmarcJobDue, retryDmarcJob, type DmarcJob } from "./queue";
import { looksLikeReportAttachment } from "./recognise";
import { refuse } from "./refusal";
import { nameSources } from "./reverse-dns";
import { storeReport } from "./store";
import { unpackReport } from "./unpack";

/**
 * The DMARC report job: one queued message at a time per process, in the background. Its
 * attachments are listed and downloaded from the service (GET /v1/emails/{id}/attachments,
 * then the authenticated download), each under DMARC_LIMITS before any byte is inflated or
 * parsed; a refused report is recorded with its reason and not tried again; a failure of the
 * service is retried with a back-off, up to MAX_ATTEMPTS.
 */
const IDLE_POLL_MS = 2_000;
const MAX_ATTEMPTS = 6;

type Outcome = { outcome: "stored" | "duplicate" | "refused" | "no_report" | "skipped" | "other_domain"; detail: string | null; sources: string[] };
export type DmarcJobOptions = { resolver?: string; caps?: DmarcCaps };

async function readReports(d: Db, projectId: string, externalId: string, messageId: string, caps: DmarcCaps): Promise<Outcome> {
  const list = await service.emails.attachments(externalId, messageId);
  const candidates = list.data.filter(looksLikeReportAttachment).slice(0, DMARC_LIMITS.attachmentsPerMessage);
  if (candidates.length === 0) return { outcome: "no_report", detail: "The message has no .xml, .xml.gz or .zip attachment.", sources: [] };
  // A full project downloads nothing (the caps bound what the inbound mail can make us store).
  const full = await roomBeforeDownload(d, projectId, caps);
  if (full) return { outcome: "skipped", detail: full, sources: [] };
  let last: Outcome | null = null;
  let domains: Set<string> | null = null;
  for (const meta of candidates) {
    try {
      if (meta.size > DMARC_LIMITS.attachmentBytes) throw tooLarge();
      const bytes = await readBodyBytes(await service.emails.downloadAttachment(meta.url), DMARC_LIMITS.attachmentBytes).catch((e) => {
        throw e instanceof BodyTooLargeError ? tooLarge() : e;
      });
      const report = await parseReport(await unpackReport(bytes));
      // Anyone can mail the rua address: a report about a domain the project does not have is not its to keep.
      domains ??= new Set((await allDomains(externalId)).map((x) => x.domain.toLowerCase()));
      if (!domains.has(report.domain)) {
        return { outcome: "other_domain", detail: `The report is about ${report.domain.slice(0, 253)}, which is not a domain of this project; it was not stored.`, sources: [] };
      }
      const stored = await storeReport(d, projectId, messageId, report, caps);
      if (stored.outcome === "skipped") return { outcome: "skipped", detail: stored.detail, sources: [] };
      const bySize = [...report.records].sort((a, b) => b.count - a.count).map((r) => r.sourceIp);
      return { outcome: stored.outcome, detail: null, sources: bySize };
    } catch (e) {
      // A refused attachment leaves the others to try; anything else (the service) is for the retry.
      if (!(isAppError(e) && e.status === 422)) throw e;
      last = { outcome: "refused", detail: `${meta.filename}: ${e.message}`.slice(0, 500), sources: [] };
    }
  }
  return last!;
}

const tooLarge = () => refuse("report_attachment_too_large", `The attachment is larger than ${DMARC_LIMITS.attachmentBytes} bytes; it was not downloaded whole.`);

export async function runDmarcJob(d: Db, job: DmarcJob, opts: DmarcJobOptions = {}): Promise<string> {
  const [project] = await d.select({ externalId: projects.externalId }).from(projects).where(eq(projects.id, job.projectId)).limit(1);
  if (!project) return "gone";
  try {
    const result = await readReports(d, job.projectId, project.externalId, job.messageId, opts.caps ?? DMARC_LIMITS);
    await finishDmarcJob(d, job, result.outcome, result.detail);
    if (result.outcome === "skipped" || result.outcome === "other_domain") console.info(`dmarc: report of message ${job.messageId} not stored (${result.outcome}): ${result.detail}`);
    // Names are a convenience: their failure never undoes the report.
    if (result.outcome === "stored") await nameSources(d, result.sources, opts).catch((e) => console.warn(`dmarc: reverse DNS: ${safeErrorSummary(e)}`));
    return result.outcome;
  } catch (e) {
    const text = isAppError(e) ? `${e.status} ${e.code}: ${e.message.slice(0, 200)}` : safeErrorSummary(e).split("\n")[0]!;
    if (job.attempts + 1 >= MAX_ATTEMPTS) {
      await finishDmarcJob(d, job, "failed", text);
      return "failed";
    }
    await retryDmarcJob(d, job, Math.min(600_000, 2000 * 4 ** job.attempts), text);
    return "retry";
  }
}

type State = { instance: string; running: boolean; timer: ReturnType<typeof setTimeout> | null; busy: Promise<number> | null; gate: DueGate; probing: Promise<boolean> | null };
const KEY = Symbol.for("mail-dashboard.dmarc-jobs");
function state(): State {
  const holder = globalThis as { [KEY]?: State };
  return (holder[KEY] ??= { instance: crypto.randomUUID(), running: false, timer: null, busy: null, gate: dueGate(nextDmarcJobDue), probing: null });
}

const leaseMs = () => Math.max(60_000, 4 * env().SERVICE_TIMEOUT_MS);

/** Works off due jobs one after another, at most `max` of them; returns how many ran. */
export async function runDmarcJobs(max = 10, opts: DmarcJobOptions = {}): Promise<number> {
  const s = state();
  if (s.busy) return s.busy;
  s.busy = (async () => {
    const d = await db();
    let ran = 0;
    for (; ran < max; ran++) {
      const job = await claimDmarcJob(d, s.instance, leaseMs());
      if (!job) break;
      await runDmarcJob(d, job, opts);
    }
    return ran;
  })().finally(() => (s.busy = null));
  return s.busy;
}

function wake(delayMs: number): void {
  const s = state();
  if (!s.running) return;
  if (s.timer) clearTimeout(s.timer);
  s.timer = setTimeout(() => {
    s.timer = null;
    // The due gate: on PGlite, nothing is asked of the database between writes until a job falls due.
    s.probing = s.gate.due();
    void s.probing
      .finally(() => (s.probing = null))
      // Stopped while the gate looked: no pass starts after a stop.
      .then((due) => (due && s.running ? runDmarcJobs() : 0))
      .then((ran) => wake(ran > 0 ? 0 : IDLE_POLL_MS))
      .catch((e) => {
        console.warn(`dmarc: ${safeErrorSummary(e)}`);
        wake(IDLE_POLL_MS);
      });
  }, delayMs);
  s.timer.unref?.();
}

/** The re-read worker's hint: a report was queued. */
export function nudgeDmarcJobs(): void {
  state().gate.wake();
  wake(0);
}

export function startDmarcJobs(): void {
  const s = state();
  if (s.running) return;
  s.running = true;
  s.gate.wake();
  wake(IDLE_POLL_MS);
}

export async function stopDmarcJobs(): Promise<void> {
  const s = state();
  s.running = false;
  if (s.timer) clearTimeout(s.timer);
  s.timer = null;
  if (s.probing) await s.probing.catch(() => false);
  if (s.busy) await s.busy.catch(() => 0);
}
