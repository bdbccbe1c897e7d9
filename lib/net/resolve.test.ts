import { createSocket, type Socket } from "node:dgram";
import { pbkdf2 } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeDnsServer, type FakeDnsServer } from "@/lib/test/fake-dns-server";
import { dnsResolver } from "@/contract/net/destination";

/**
 * Names someone else chose are resolved with c-ares (finding 14 of the second review: a slow
 * DNS answer kept one of libuv's four threads after the 5 s timeout, with getaddrinfo). A real
 * DNS server on 127.0.0.1 answers; a UDP socket that reads queries and never answers stands
 * in for a name server that hangs.
 */
let dns: FakeDnsServer;
let silent: Socket;
let silentAddress: string;
beforeAll(async () => {
  dns = await startFakeDnsServer({
    "site.example.test": [{ type: "A", address: "93.184.216.34" }],
    "broken.example.test": [{ type: "SERVFAIL" }],
  });
  silent = createSocket("udp4");
  await new Promise<void>((resolve) => silent.bind(0, "127.0.0.1", resolve));
  silentAddress = `127.0.0.1:${silent.address().port}`;
});
afterAll(async () => {
  await dns.close();
  silent.close();
});

/** One task on libuv's thread pool (pbkdf2 runs there): how long until it completes. */
const threadPoolTaskMs = () =>
  new Promise<number>((resolve) => {
    const started = performance.now();
    pbkdf2("x", "y", 1, 32, "sha256", () => resolve(performance.now() - started));
  });

describe("dnsResolver", () => {
  it("answers from DNS", async () => {
    expect(await dnsResolver({ servers: [dns.address] })("site.example.test")).toEqual(["93.184.216.34"]);
  });

  it("gives no address for a name that does not exist, and the error for a failing server", async () => {
    const resolve = dnsResolver({ servers: [dns.address] });
    expect(await resolve("nothing.example.test")).toEqual([]);
    await expect(resolve("broken.example.test")).rejects.toMatchObject({ code: "ESERVFAIL" });
  });

  it("resolves localhost to loopback without asking DNS", async () => {
    expect(await dnsResolver({ servers: [silentAddress], timeoutMs: 100 })("localhost")).toEqual(["127.0.0.1", "::1"]);
  });

  it("gives up on a silent name server at its timeout, holding none of libuv's threads meanwhile", async () => {
    const resolve = dnsResolver({ servers: [silentAddress], timeoutMs: 400 });
    const started = Date.now();
    // More lookups at once than libuv has threads (4): with getaddrinfo these would hold every one.
    const pending = Array.from({ length: 8 }, (_, i) => resolve(`slow-${i}.example.test`).then(() => null, (e: NodeJS.ErrnoException) => e.code));
    expect(await threadPoolTaskMs()).toBeLessThan(200);
    const codes = await Promise.all(pending);
    expect(Date.now() - started).toBeLessThan(2000);
    for (const code of codes) expect(["ETIMEOUT", "ECANCELLED"]).toContain(code);
  });
});
