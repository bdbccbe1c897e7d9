/**
 * The entry of a password worker thread (lib/server/auth/password-pool.ts): one bcrypt compare
 * at a time, off the server's request thread, where pure-JS bcrypt held the event loop for
 * ~180 ms per check. No "server-only" import: a worker thread is not a React server
 * environment, and that marker would throw here.
 */
import { parentPort } from "node:worker_threads";
import bcrypt from "bcryptjs";

const port = parentPort;
if (!port) throw new Error("password-worker.ts runs as a worker thread only");

port.on("message", ({ id, payload }: { id: number; payload: { password: string; hash: string } }) => {
  try {
    // Sync is right here: this thread does nothing else meanwhile.
    port.postMessage({ id, ok: true, value: bcrypt.compareSync(payload.password, payload.hash) });
  } catch {
    port.postMessage({ id, ok: false, error: { message: "The password could not be checked." } });
  }
});
port.postMessage({ ready: true });
