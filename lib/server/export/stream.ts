import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { MAX_EXPORT_ROWS } from "@/lib/schemas/words";
import type { ExportFormat } from "@/lib/schemas/export";
import { recordAudit } from "../audit";
import type { Actor, Project } from "../gate/access";
import { busyError, oneAtATime } from "../limits/one-at-a-time";
import { createSlots } from "../limits/slots";
import { encodeHead, encodeRows, type ExportColumn } from "./format";

/** Exports running at once in one dashboard process, whoever asks: each holds a database connection while the client reads. */
export const EXPORTS_PER_PROCESS = 4;
/** The longest one export may run (a client reading very slowly holds its slot no longer). */
export const EXPORT_MAX_MS = 30 * 60_000;

const perUser = oneAtATime("export", () => busyError("export_running", "An export of yours is still running: wait for it to finish or cancel it.", 10));
const SLOTS_KEY = Symbol.for("mail-dashboard.export-slots");
const holder = globalThis as { [SLOTS_KEY]?: ReturnType<typeof createSlots> };
const slots = (holder[SLOTS_KEY] ??= createSlots(EXPORTS_PER_PROCESS));

/**
 * Where an export's rows come from: pages in the screen's order, each a bounded keyset read
 * (never OFFSET, never all rows at once). The signal aborts when the client goes away, so a
 * source stops before its next read.
 */
export type PageSource<T> = (signal: AbortSignal) => AsyncIterable<readonly T[]>;

export type ExportSpec<T> = {
  actor: Actor;
  project: Project | null;
  /** What is exported, for the file name and the audit action (`export.<kind>`). */
  kind: string;
  /** The screen's filter as asked, recorded in the audit entry. */
  filter: Record<string, unknown>;
  format: ExportFormat;
  columns: readonly ExportColumn<T>[];
  pages: PageSource<T>;
  /** The request's signal: the client going away ends the export. */
  signal?: AbortSignal;
};

/** A page source over any cursor-paged read (the screens' own reads), at most `maxPages` pages. */
export function cursorPages<T>(read: (cursor: string | undefined) => Promise<{ data: readonly T[]; nextCursor: string | null }>, maxPages = Infinity): PageSource<T> {
  return async function* (signal) {
    let cursor: string | undefined;
    for (let i = 0; i < maxPages && !signal.aborted; i++) {
      const page = await read(cursor);
      yield page.data;
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
  };
}

/** A file name that is safe in a header and on any disk: `<kind>-<project>-<date>.<format>`. */
export function exportFileName(kind: string, project: Project | null, format: ExportFormat, now = new Date()): string {
  const parts = [kind, project?.externalId, now.toISOString().slice(0, 10)].filter(Boolean).map((p) => p!.replace(/[^A-Za-z0-9_-]/g, "_"));
  return `${parts.join("-")}.${format}`;
}

/**
 * The export as a streamed response: rows are read a page at a time only when the client has
 * taken the previous one (pull, so memory holds a page, whatever the row count), written as
 * CSV (formulae neutralised) or NDJSON, and audited once at the end with the filter and the
 * row count — also when the client cancels (with the count so far) or a read fails. One
 * export per user (429 otherwise) and EXPORTS_PER_PROCESS per process. The first page is read
 * before answering, so a failing read is an error answer, not a cut-off file.
 */
export async function exportResponse<T>(spec: ExportSpec<T>): Promise<Response> {
  const stop = new AbortController();
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  const running = perUser(spec.actor.id, () => held);
  // A user already exporting makes `running` rejected at once; race() then reports it first.
  await Promise.race([running, undefined]);
  running.catch(() => {});
  if (slots.stats().inUse >= EXPORTS_PER_PROCESS) {
    finish();
    throw busyError("exports_busy", `At most ${EXPORTS_PER_PROCESS} exports run at once: try again in a moment.`, 10);
  }
  const release = await slots.acquire();
  const startedAt = Date.now();
  let count = 0;
  let ended = false;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const iterator = spec.pages(stop.signal)[Symbol.asyncIterator]();

  const end = async (how: "complete" | "cancelled" | "failed" | "limit", error?: unknown) => {
    if (ended) return;
    ended = true;
    clearTimeout(deadline);
    stop.abort();
    spec.signal?.removeEventListener("abort", onAbort);
    release();
    finish();
    // Ends the source (a pending read finishes first); its failure changes nothing now.
    void Promise.resolve(iterator.return?.()).catch(() => {});
    await recordAudit({
      actor: spec.actor,
      action: `export.${spec.kind}`,
      project: spec.project?.externalId ?? null,
      outcome: how === "failed" ? "failure" : "success",
      detail: { format: spec.format, filter: spec.filter, rows: count, ...(how === "complete" ? {} : { ended: how }), ...(error ? { error: safeErrorSummary(error) } : {}) },
    }).catch((e) => console.error(`export: could not audit: ${safeErrorSummary(e)}`));
  };
  const onAbort = () => void end("cancelled");
  spec.signal?.addEventListener("abort", onAbort, { once: true });

  const encoder = new TextEncoder();
  /** The next page as bytes, or null at the end; counts rows and applies the bounds. */
  const nextChunk = async (): Promise<Uint8Array | null> => {
    if (ended) return null;
    if (Date.now() - startedAt > EXPORT_MAX_MS) {
      await end("limit");
      return null;
    }
    const next = await iterator.next();
    if (next.done || ended) {
      await end(ended ? "cancelled" : "complete");
      return null;
    }
    const rows = next.value.slice(0, MAX_EXPORT_ROWS - count);
    count += rows.length;
    const bytes = encoder.encode(encodeRows(spec.format, spec.columns, rows));
    if (count >= MAX_EXPORT_ROWS) await end("limit");
    return bytes;
  };

  let first: Uint8Array | null;
  try {
    first = await nextChunk();
  } catch (e) {
    await end("failed", e);
    throw e;
  }
  const head = encoder.encode(encodeHead(spec.format, spec.columns));
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (head.length) controller.enqueue(head);
        if (first?.length) controller.enqueue(first);
        if (first === null || ended) return controller.close();
        // A client that keeps the connection open but stops reading still lets go of its slot.
        deadline = setTimeout(() => {
          if (ended) return;
          void end("limit");
          controller.error(new Error(`export: past ${EXPORT_MAX_MS / 60_000} minutes`));
        }, Math.max(0, EXPORT_MAX_MS - (Date.now() - startedAt)));
        deadline.unref?.();
      },
      async pull(controller) {
        try {
          // An empty page enqueues nothing, and a pull that enqueues nothing is not called again: read on.
          let chunk = await nextChunk();
          while (chunk !== null && !chunk.length && !ended) chunk = await nextChunk();
          if (chunk?.length) controller.enqueue(chunk);
          if (chunk === null || ended) controller.close();
        } catch (e) {
          await end("failed", e);
          controller.error(e);
        }
      },
      async cancel() {
        await end("cancelled");
      },
    },
    // One page waits at most: the next is read only when the client has taken this one.
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      "Content-Type": spec.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(spec.kind, spec.project, spec.format)}"`,
      "X-Export-Row-Limit": String(MAX_EXPORT_ROWS),
    },
  });
}
