/**
 * The entry of a pre-send check worker thread (lib/server/presend/check-pool.ts): it runs the
 * checks of one draft at a time, off the server's request thread, and builds the MIME message
 * SpamAssassin scores when asked (a megabyte of html took half a second to encode). No
 * "server-only" import: a worker thread is not a React server environment, and that marker
 * would throw here.
 */
import { parentPort } from "node:worker_threads";
import { isAppError } from "@/lib/errors";
import { guardConsoleErrors } from "@/contract/log/console-guard";
import { runChecks } from "@/lib/presend";
import type { PlainError } from "@/lib/server/limits/worker-pool";
import { buildMessage } from "@/lib/server/spam/message";
import type { CheckTask } from "./check-pool";

const port = parentPort;
if (!port) throw new Error("check-worker.ts runs as a worker thread only");
// A worker thread has a console of its own: a library's warning about a draft is scrubbed here too.
guardConsoleErrors();

/** Only our own errors (bad input found while checking) go back as they are; anything else without its values. */
function plain(e: unknown): PlainError {
  if (isAppError(e)) return { status: e.status, code: e.code, message: e.message, param: e.param };
  return { status: 500, code: "internal_error", message: `The checks failed on this draft (${(e as Error)?.name ?? "error"}).` };
}

port.on("message", async ({ id, payload }: { id: number; payload: CheckTask }) => {
  try {
    const result = runChecks(payload.draft);
    const mime = payload.mime ? await buildMessage(payload.draft) : undefined;
    port.postMessage({ id, ok: true, value: { result, mime } });
  } catch (e) {
    port.postMessage({ id, ok: false, error: plain(e) });
  }
});
port.postMessage({ ready: true });
