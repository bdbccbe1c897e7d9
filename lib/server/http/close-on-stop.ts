import "server-only";
import { hookServerRequests } from "./http-request-hook";

/**
 * Once the dashboard is told to stop (SIGTERM, SIGINT), every answer closes its connection.
 * Next's own handler then closes the server: Node closes the connections idle at that instant
 * and waits for the others, and a sender that keeps its kept-alive connections busy never lets
 * them be idle. A dashboard taking in a steady stream of deliveries (the service's webhooks
 * during the demo's month, a provider's under load) did not end until they stopped: 16 such
 * connections stayed open for as long as it was watched, and a stack's stop ended in SIGKILL
 * at the end of its grace. Closed after their answer, the connections go one by one, the
 * sender retries on a new one (refused: nothing listens any more) and the server's close ends.
 */
const KEY = Symbol.for("mail-dashboard.close-on-stop");
type Holder = { [KEY]?: { stopping: boolean } };

const state = () => ((globalThis as Holder)[KEY] ??= { stopping: false });

/** From now on, each answer closes its connection. Called on SIGTERM and SIGINT; tests call it directly. */
export function closeConnectionsFromNowOn(): void {
  state().stopping = true;
}

/** Called once at start (instrumentation.ts), after the hooks that answer requests themselves. Idempotent. */
export function installCloseOnStop(): void {
  hookServerRequests(KEY, (_req, res) => {
    // Read by Node when the answer's headers are written: `Connection: close`, then the socket ends.
    if (state().stopping) res.shouldKeepAlive = false;
    return false;
  });
  if (!process.listeners("SIGTERM").includes(closeConnectionsFromNowOn)) {
    process.once("SIGTERM", closeConnectionsFromNowOn);
    process.once("SIGINT", closeConnectionsFromNowOn);
  }
}
