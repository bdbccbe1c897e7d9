import "server-only";
import { safeErrorSummary } from "@/contract/log/safe-error";
import { MAX_EXPORT_ROWS } from "@/lib/schemas/words";
import type { ExportFormat } from "@/lib/schemas/export";
import { recordAudit } from "../audit";
import type { Actor, Project } from "../gate/access";
import { busyError, oneAtATime } from "../limits/one-at-a-time";
import { createSlots } from "../limits/slots";
import { encodeHead, encodeRows, encodeStop, type ExportColumn, type ExportStop } from "./format";

/** Exports running at once in one dashboard process, whoever asks: each holds a database connection while the client reads. */
export const EXPORTS_PER_PROCESS = 4;
/** The longest one export may run (a client reading very slowly holds its slot no longer). */
export const EXPORT_MAX_MS = 30 * 60_000;

/** The bounds of one export: the rows it writes at most and how long it may run (README "Limits"). */
export type ExportLimits = { maxRows: number; maxMs: number };
export const EXPORT_LIMITS: ExportLimits = { maxRows: MAX_EXPORT_ROWS, maxMs: EXPORT_MAX_MS };

const perUser = oneAtATime("export", () => busyError("export_running", "An export of yours is still running: wait for it to finish or cancel it.", 10));
const SLOTS_KEY = Symbol.for("mail-dashboard.export-slots");
const holder = globalThis as { [SLOTS_KEY]?: ReturnType<typeof createSlots> };
const slots = (holder[SLOTS_KEY] ??= createSlots(EXPORTS_PER_PROCESS));

/**
 * Whether an export runs in this process: the insight refresher then keeps its passes small
 * (alerts/background.ts), as on PGlite every read shares one thread with the rollups — a
 * backlog's passes of seconds each held an export of 200,000 messages to 3,300 rows a second
 * against 44,000 alone.
 */
export const exportsRunningHere = () => slots.stats().inUse > 0;

/** What a source returns when it stopped at its own bound with more to read (a page cap on a service's list). */
export type SourceStop = { stop: "pages"; limit: number };

/**
 * Where an export's rows come from: pages in the screen's order, each a bounded keyset read
 * (never OFFSET, never all rows at once). The signal aborts when the client goes away, so a
 * source stops before its next read. A source that stops at its own bound with rows left
 * returns a SourceStop, and the file says so.
 */
export type PageSource<T> = (signal: AbortSignal) => AsyncGenerator<readonly T[], SourceStop | void, undefined>;

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
  /** Tighter bounds than EXPORT_LIMITS (tests); never looser. */
  limits?: Partial<ExportLimits>;
};

/** A page source over any cursor-paged read (the screens' own reads), at most `maxPages` pages. */
export function cursorPages<T>(read: (cursor: string | undefined) => Promise<{ data: readonly T[]; nextCursor: string | null }>, maxPages = Infinity): PageSource<T> {
  return async function* (signal) {
    let cursor: string | undefined;
    for (let i = 0; i < maxPages; i++) {
      if (signal.aborted) return;
      const page = await read(cursor);
      yield page.data;
      if (!page.nextCursor) return;
      cursor = page.nextCursor;
    }
    // The bound was reached and the list goes on.
    return { stop: "pages", limit: maxPages };
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
 * before answering, so a failing read is an error answer, not a cut-off file. An export that
 * reaches a limit (rows, time, its source's pages) ends with a line saying so (encodeStop) and
 * is audited with `ended: "limit"` and which limit.
 */
export async function exportResponse<T>(spec: ExportSpec<T>): Promise<Response> {
  const limits: ExportLimits = {
    maxRows: Math.min(spec.limits?.maxRows ?? Infinity, EXPORT_LIMITS.maxRows),
    maxMs: Math.min(spec.limits?.maxMs ?? Infinity, EXPORT_LIMITS.maxMs),
  };
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
  const iterator = spec.pages(stop.signal);

  const end = async (how: "complete" | "cancelled" | "failed" | ExportStop, error?: unknown) => {
    if (ended) return;
    ended = true;
    clearTimeout(deadline);
    stop.abort();
    spec.signal?.removeEventListener("abort", onAbort);
    release();
    finish();
    // Ends the source (a pending read finishes first); its failure changes nothing now.
    void iterator.return(undefined).catch(() => {});
    const limit = how === "rows" || how === "time" || how === "pages" ? { ended: "limit", limit: how } : {};
    await recordAudit({
      actor: spec.actor,
      action: `export.${spec.kind}`,
      project: spec.project?.externalId ?? null,
      outcome: how === "failed" ? "failure" : "success",
      detail: {
        format: spec.format,
        filter: spec.filter,
        rows: count,
        ...(how === "complete" ? {} : how === "cancelled" || how === "failed" ? { ended: how } : limit),
        ...(error ? { error: safeErrorSummary(error) } : {}),
      },
    }).catch((e) => console.error(`export: could not audit: ${safeErrorSummary(e)}`));
  };
  const onAbort = () => void end("cancelled");
  spec.signal?.addEventListener("abort", onAbort, { once: true });

  /** The file's last line when a limit ended it; set before anything can close the stream. */
  let stopLine = "";
  /** Ends the export at a limit: the rows so far are audited, and the file's last line says which limit. */
  const stopAt = async (why: ExportStop, limit: number) => {
    if (ended) return;
    stopLine = encodeStop(spec.format, why, limit, count);
    await end(why);
  };

  /** The next page as text, and whether it is the last; counts rows and applies the bounds. */
  const nextChunk = async (): Promise<{ text: string; last: boolean }> => {
    if (ended) return { text: "", last: true };
    if (Date.now() - startedAt >= limits.maxMs) {
      await stopAt("time", limits.maxMs);
      return { text: "", last: true };
    }
    const next = await iterator.next();
    // Cancelled, or past the deadline, while the page was read: it is not written.
    if (ended) return { text: "", last: true };
    if (next.done) {
      if (next.value) await stopAt(next.value.stop, next.value.limit);
      else await end("complete");
      return { text: "", last: true };
    }
    const rows = next.value.length > limits.maxRows - count ? next.value.slice(0, limits.maxRows - count) : next.value;
    count += rows.length;
    const text = encodeRows(spec.format, spec.columns, rows);
    if (count >= limits.maxRows) await stopAt("rows", limits.maxRows);
    return { text, last: count >= limits.maxRows };
  };

  let first: { text: string; last: boolean };
  try {
    first = await nextChunk();
  } catch (e) {
    await end("failed", e);
    throw e;
  }
  const encoder = new TextEncoder();
  let closed = false;
  /** Writes the last rows, and the limit's line if one ended the export, then ends the file. */
  const close = (controller: ReadableStreamDefaultController<Uint8Array>, text = "") => {
    if (closed) return;
    closed = true;
    if (text || stopLine) controller.enqueue(encoder.encode(text + stopLine));
    controller.close();
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const head = encodeHead(spec.format, spec.columns) + first.text;
        if (first.last || ended) return close(controller, head);
        if (head) controller.enqueue(encoder.encode(head));
        // A client that keeps the connection open but stops reading still lets go of its slot;
        // the file ends with the time limit's line, for when it reads on.
        deadline = setTimeout(() => {
          if (ended) return;
          void stopAt("time", limits.maxMs).then(() => close(controller));
        }, Math.max(0, limits.maxMs - (Date.now() - startedAt)));
        deadline.unref?.();
      },
      async pull(controller) {
        try {
          // An empty page enqueues nothing, and a pull that enqueues nothing is not called again: read on.
          let chunk = await nextChunk();
          while (!chunk.last && !chunk.text) chunk = await nextChunk();
          if (closed) return;
          if (chunk.last) return close(controller, chunk.text);
          controller.enqueue(encoder.encode(chunk.text));
        } catch (e) {
          await end("failed", e);
          if (!closed) controller.error(e);
          closed = true;
        }
      },
      async cancel() {
        closed = true;
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
      "X-Export-Row-Limit": String(limits.maxRows),
    },
  });
}
