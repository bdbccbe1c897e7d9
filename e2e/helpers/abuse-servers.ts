import { createServer } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * The slow partners the abuse suite points the dashboard at, all on 127.0.0.1: a spamd that
 * trickles its answer, and a web server whose links answer slowly (and that also takes the
 * alert webhook's POSTs). Each counts what it saw, so a test can say how much work the
 * dashboard sent out.
 */

/** Answers like spamd, one byte a second: each byte alone is prompt, the answer never ends in time. */
export async function tricklingSpamd(): Promise<{ port: number; close(): Promise<void> }> {
  const answer = "SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\nSpam: False ; 1.0 / 5.0\r\n\r\n";
  const sockets = new Set<Socket>();
  // Half-open: the client ends its side once its request is written, and spamd answers after.
  const server = createTcpServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    let at = 0;
    const timer = setInterval(() => {
      if (at < answer.length) socket.write(answer[at++]!);
      else socket.end();
    }, 1_000);
    socket.on("data", () => {});
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Links under /slow/ answer 200 after `holdMs`; POST /hook answers 204 at once. */
export async function slowLinks(holdMs: number) {
  let open = 0;
  const seen = { total: 0, maxOpen: 0, hooks: 0 };
  const server = createServer((req, res) => {
    if (req.method === "POST" && req.url?.startsWith("/hook")) {
      seen.hooks++;
      req.resume();
      return void res.writeHead(204).end();
    }
    seen.total++;
    open++;
    seen.maxOpen = Math.max(seen.maxOpen, open);
    const timer = setTimeout(() => res.writeHead(200, { "Content-Type": "text/plain" }).end("ok"), holdMs);
    res.on("close", () => {
      clearTimeout(timer);
      open--;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    reset: () => Object.assign(seen, { total: 0, maxOpen: 0, hooks: 0 }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
