import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerTooLargeError, exchange } from "./transport";

let server: Server;
let base: URL;
let connections = 0;
const answers = new Map<string, (res: ServerResponse) => void>();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => (answers.get(req.url ?? "") ?? ((r) => r.end(`{"echo":${JSON.stringify(req.method)}}`)))(res));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const at = (path: string) => new URL(path, base);
const plain = { method: "GET", headers: {}, timeoutMs: 2_000, maxBytes: 1_000 };

describe("one exchange with the service", () => {
  it("reads the whole answer, status and headers", async () => {
    answers.set("/hello", (res) => res.writeHead(201, { "X-Said": "yes" }).end("hello"));
    const answer = await exchange(at("/hello"), plain);
    expect(answer).toMatchObject({ status: 201, text: "hello" });
    expect(answer.headers["x-said"]).toBe("yes");
  });

  it("stops reading an answer past maxBytes, whether its length is declared or not", async () => {
    answers.set("/declared", (res) => res.writeHead(200, { "Content-Length": "5000" }).end("x".repeat(5000)));
    answers.set("/chunked", (res) => {
      res.writeHead(200);
      // Written in pieces without a length: only counting the bytes as they come finds it.
      for (let i = 0; i < 10; i++) res.write("y".repeat(500));
      res.end();
    });
    await expect(exchange(at("/declared"), plain)).rejects.toBeInstanceOf(AnswerTooLargeError);
    await expect(exchange(at("/chunked"), plain)).rejects.toBeInstanceOf(AnswerTooLargeError);
    // Exactly at the bound is read.
    answers.set("/exact", (res) => res.end("z".repeat(1_000)));
    expect((await exchange(at("/exact"), plain)).text).toHaveLength(1_000);
  });

  it("fails with a TimeoutError when the whole answer does not arrive in time", async () => {
    answers.set("/slow", (res) => {
      res.writeHead(200);
      res.write("part");
      // The rest never comes: the deadline covers the body, not only the headers.
    });
    const started = Date.now();
    const error = await exchange(at("/slow"), { ...plain, timeoutMs: 200 }).catch((e: Error) => e);
    expect((error as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("keeps connections alive between exchanges, except for one that must not be retried", async () => {
    const before = connections;
    for (let i = 0; i < 5; i++) await exchange(at("/any"), plain);
    // One new connection at most: none when an earlier test left one open to reuse.
    expect(connections - before).toBeLessThanOrEqual(1);
    const alone = connections;
    for (let i = 0; i < 3; i++) await exchange(at("/any"), { ...plain, method: "POST", body: "{}", reuse: false });
    expect(connections - alone).toBe(3);
  });

  it("sends the body with its length", async () => {
    let received = "";
    server.once("request", (req) => {
      req.setEncoding("utf8");
      req.on("data", (c: string) => (received += c));
    });
    const answer = await exchange(at("/posted"), { ...plain, method: "POST", headers: { "Content-Type": "application/json" }, body: '{"é":1}' });
    expect(answer.text).toBe('{"echo":"POST"}');
    expect(received).toBe('{"é":1}');
  });
});
