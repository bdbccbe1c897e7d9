import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A load balancer for the multi-instance test: round robin over the live instances, as a real
 * one would sit in front of several dashboards (PUBLIC_URL is its address). The Host header
 * passes through, so the dashboards build their links for the balancer. `ingestTo` pins the
 * event stream's deliveries to one instance, so a test knows which one heard an event.
 */
export type Balancer = {
  url: string;
  setTargets(urls: string[]): void;
  ingestTo(url: string | null): void;
  close(): Promise<void>;
};

export async function startBalancer(targets: string[]): Promise<Balancer> {
  let live = [...targets];
  let ingest: string | null = null;
  let next = 0;
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const pinned = ingest && req.url?.startsWith("/api/ingest/") ? ingest : null;
    const target = new URL(pinned ?? live[next++ % live.length]);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`balancer: ${target.host} did not answer (${e.message})`);
    });
    req.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setTargets: (urls) => void (live = [...urls]),
    ingestTo: (url) => void (ingest = url),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
