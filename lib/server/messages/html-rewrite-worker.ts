/**
 * The entry of an html-rewrite worker thread (html-rewrite-pool.ts): it rewrites one email's
 * html at a time for a screen's first render, off the server's request thread. No
 * "server-only" import: a worker thread is not a React server environment, and that marker
 * would throw here.
 */
import { parentPort } from "node:worker_threads";
import { guardConsoleErrors } from "@/contract/log/console-guard";
import { rewriteEmailHtml } from "@/lib/messages/email-html";
import type { PlainError } from "@/lib/server/limits/worker-pool";

const port = parentPort;
if (!port) throw new Error("html-rewrite-worker.ts runs as a worker thread only");
// A worker thread has a console of its own: anything printed about a stranger's html is scrubbed here too.
guardConsoleErrors();

port.on("message", ({ id, payload }: { id: number; payload: { html: string } }) => {
  try {
    port.postMessage({ id, ok: true, value: rewriteEmailHtml(payload.html, { blockImages: true }) });
  } catch (e) {
    // Never the html's own text: only what kind of failure it was.
    const error: PlainError = { status: 500, code: "internal_error", message: `The html could not be rewritten (${(e as Error)?.name ?? "error"}).` };
    port.postMessage({ id, ok: false, error });
  }
});
port.postMessage({ ready: true });
