import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closeConnectionsFromNowOn, installCloseOnStop } from "./close-on-stop";

/**
 * A server told to stop while a sender keeps its kept-alive connections busy: what Next's
 * SIGTERM handler does (server.close(), then wait) ends only if each answer closes its
 * connection. The senders post without pause on 16 connections, as the service's webhook
 * deliverer did during the demo's month.
 */
const SENDERS = 16;

async function busyServer() {
  // Each answer takes a moment, as the dashboard's do: a connection is then mid-request when
  // the server is closed, and Node keeps it for the next request (answered at once, every
  // connection is idle when the server closes, and closed then).
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => setTimeout(() => res.writeHead(204).end(), 50));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new http.Agent({ keepAlive: true, maxSockets: SENDERS });
  let sending = true;
  let answered = 0;
  const post = () =>
    new Promise<void>((resolve) => {
      const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/ingest/p", agent }, (res) => {
        res.resume();
        res.on("end", () => {
          answered++;
          resolve();
        });
      });
      // Refused once nothing listens: the sender would retry later.
      req.on("error", () => setTimeout(resolve, 20));
      req.end("{}");
    });
  const senders = Array.from({ length: SENDERS }, async () => {
    const until = Date.now() + 10_000;
    while (sending && Date.now() < until) await post();
  });
  // Every connection in use before the stop.
  while (answered < SENDERS * 2) await new Promise((r) => setTimeout(r, 10));
  /** server.close(), as Next's handler does; resolves with how long it took to end, or null if it had not within `withinMs`. */
  const close = (withinMs: number) =>
    new Promise<number | null>((resolve) => {
      const started = Date.now();
      const timer = setTimeout(() => resolve(null), withinMs);
      server.close(() => {
        clearTimeout(timer);
        resolve(Date.now() - started);
      });
    });
  const end = async () => {
    sending = false;
    await Promise.all(senders);
    agent.destroy();
    server.closeAllConnections();
  };
  return { close, end };
}

let ends: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(ends.map((end) => end()));
  ends = [];
  // The next test starts before any stop.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("mail-dashboard.close-on-stop")];
});

describe("closing connections once the dashboard stops", () => {
  it("without it, a server closed under a steady stream does not end while the stream goes on", async () => {
    installCloseOnStop();
    const { close, end } = await busyServer();
    ends.push(end);
    expect(await close(1_500)).toBeNull();
  });

  it("with it, the server closes within a moment though the senders keep sending", async () => {
    installCloseOnStop();
    const { close, end } = await busyServer();
    ends.push(end);
    closeConnectionsFromNowOn();
    const ms = await close(5_000);
    expect(ms).not.toBeNull();
    expect(ms!).toBeLessThan(1_000);
  });
});
