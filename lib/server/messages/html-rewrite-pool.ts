import "server-only";
import { Worker } from "node:worker_threads";
import type { RewrittenHtml } from "@/lib/messages/email-html";
import { WORKER_FROM_SOURCE, workerFromSource } from "@/lib/server/limits/source-worker";
import { createWorkerPool, type WorkerPool } from "@/lib/server/limits/worker-pool";

/**
 * A message screen's first render of an email's html, rewritten on the server (remote images
 * blocked, as the frame opens), so the browser draws it without downloading the rewriter
 * (htmlparser2's tokenizer and its entities, about 30 KiB of the screen's first load). The
 * html is a stranger's, so the pass runs in a worker thread (html-rewrite-worker.ts), never on
 * the request thread, within bounds checked before the work starts (README "Limits"):
 * - html longer than REWRITE_MAX_CHARS is not rewritten here (the browser's rewriter does it,
 *   loaded then; Gmail clips mail at 102 KB, so real mail fits);
 * - REWRITE_WORKERS threads, REWRITE_QUEUE tasks waiting at most, REWRITE_TIMEOUT_MS each,
 *   waiting for a worker included; a worker may hold REWRITE_WORKER_HEAP_MB.
 * Whatever fails (busy, too slow, too large) only costs the screen the download: null, and
 * the frame loads the rewriter.
 */
export const REWRITE_MAX_CHARS = 500_000;
export const REWRITE_WORKERS = 1;
export const REWRITE_QUEUE = 16;
export const REWRITE_TIMEOUT_MS = 2_000;
const REWRITE_WORKER_HEAP_MB = 64;

const options = { name: "html-rewrite", resourceLimits: { maxOldGenerationSizeMb: REWRITE_WORKER_HEAP_MB } };

function spawn(): Worker {
  if (WORKER_FROM_SOURCE) {
    // Not `new URL("./html-rewrite-worker.ts", import.meta.url)`: Next would copy the file as an asset.
    return workerFromSource(import.meta.url.replace(/html-rewrite-pool\.ts$/, "html-rewrite-worker.ts"), import.meta.url, options);
  }
  // Written out in full: Next bundles a worker only from `new Worker(new URL("…", import.meta.url))`.
  return new Worker(new URL("./html-rewrite-worker.ts", import.meta.url), options);
}

export type RewritePoolSettings = { timeoutMs: number; maxChars: number };
const DEFAULTS: RewritePoolSettings = { timeoutMs: REWRITE_TIMEOUT_MS, maxChars: REWRITE_MAX_CHARS };

// One pool per process, though Next may load this module in more than one bundle.
const KEY = Symbol.for("mail-dashboard.html-rewrite-pool");
type Holder = { [KEY]?: { pool: WorkerPool; settings: RewritePoolSettings } };

function pool(): { pool: WorkerPool; settings: RewritePoolSettings } {
  const holder = globalThis as Holder;
  // A worker is kept a while after its last task: a screen opened after another should not wait for a thread to start.
  holder[KEY] ??= { settings: DEFAULTS, pool: createWorkerPool({ spawn, size: REWRITE_WORKERS, maxQueue: REWRITE_QUEUE, timeoutMs: DEFAULTS.timeoutMs, idleMs: 5 * 60_000 }) };
  return holder[KEY];
}

/** Tests: the next rewrite starts a pool with these bounds (tighter than the defaults). */
export async function resetRewritePool(settings?: Partial<RewritePoolSettings>): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[KEY];
  delete holder[KEY];
  await current?.pool.close();
  if (settings) {
    const s = { ...DEFAULTS, ...settings };
    holder[KEY] = { settings: s, pool: createWorkerPool({ spawn, size: REWRITE_WORKERS, maxQueue: REWRITE_QUEUE, timeoutMs: s.timeoutMs }) };
  }
}

export function rewritePoolStats() {
  return (globalThis as Holder)[KEY]?.pool.stats() ?? { workers: 0, running: 0, queued: 0 };
}

/**
 * `html` rewritten as the frame first shows it (remote images blocked), in a worker; null when
 * it is too long to rewrite here or the pool could not (the browser's rewriter then does it).
 */
export async function rewriteForFirstRender(html: string): Promise<RewrittenHtml | null> {
  const { pool: workers, settings } = pool();
  if (html.length > settings.maxChars) return null;
  try {
    return await workers.run<RewrittenHtml>({ html });
  } catch (e) {
    console.warn(`html rewrite: left to the browser (${(e as Error).message})`);
    return null;
  }
}
