import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { clientAddress, installPeerAddressHeader, PEER_HEADER } from "./client-address";
import { EnvError, parseEnv } from "@/lib/server/env";
import { setTestEnv } from "@/lib/server/test-helpers";

const headers = (h: Record<string, string>) => new Headers(h);

describe("clientAddress", () => {
  it("without a trusted proxy is the TCP peer, whatever the forwarded headers say", () => {
    setTestEnv({ TRUSTED_PROXIES: undefined });
    expect(clientAddress(headers({ [PEER_HEADER]: "203.0.113.7", "x-forwarded-for": "1.2.3.4", "x-real-ip": "5.6.7.8" }))).toBe("203.0.113.7");
    expect(clientAddress(headers({ [PEER_HEADER]: "::ffff:203.0.113.7" }))).toBe("203.0.113.7");
    // Rotating X-Forwarded-For does not give a fresh throttle bucket.
    const spoofed = ["9.9.9.1", "9.9.9.2", "9.9.9.3"].map((xff) => clientAddress(headers({ [PEER_HEADER]: "198.51.100.1", "x-forwarded-for": xff })));
    expect(new Set(spoofed)).toEqual(new Set(["198.51.100.1"]));
    expect(clientAddress(headers({ "x-forwarded-for": "1.2.3.4" }))).toBe("unknown");
  });

  it("behind a trusted proxy reads X-Forwarded-For from the right, skipping trusted proxies", () => {
    setTestEnv({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8, ::1" });
    // The client wrote "6.6.6.6" itself; the proxy appended the address it saw.
    expect(clientAddress(headers({ [PEER_HEADER]: "127.0.0.1", "x-forwarded-for": "6.6.6.6, 203.0.113.9" }))).toBe("203.0.113.9");
    expect(clientAddress(headers({ [PEER_HEADER]: "::1", "x-forwarded-for": "203.0.113.9, 10.1.2.3" }))).toBe("203.0.113.9");
    // A request that did not come through a trusted proxy: its headers are not believed.
    expect(clientAddress(headers({ [PEER_HEADER]: "198.51.100.4", "x-forwarded-for": "203.0.113.9" }))).toBe("198.51.100.4");
    // Nothing but proxies: the farthest one.
    expect(clientAddress(headers({ [PEER_HEADER]: "127.0.0.1", "x-forwarded-for": "10.0.0.5" }))).toBe("10.0.0.5");
    expect(clientAddress(headers({ [PEER_HEADER]: "127.0.0.1" }))).toBe("127.0.0.1");
    setTestEnv({ TRUSTED_PROXIES: undefined });
  });

  it("TRUSTED_PROXIES accepts addresses and CIDR ranges only, naming the variable otherwise", () => {
    const base = { SERVICE_URL: "http://127.0.0.1:9", SERVICE_API_KEY: "k", AUTH_SECRET: "x".repeat(32) };
    expect(parseEnv({ ...base, TRUSTED_PROXIES: "10.0.0.0/8,::1, 192.168.1.1" }).TRUSTED_PROXIES).toEqual(["10.0.0.0/8", "::1", "192.168.1.1"]);
    expect(parseEnv(base).TRUSTED_PROXIES).toEqual([]);
    for (const bad of ["proxy.internal", "10.0.0.0/33", "10.0.0.1/8/2", "*"]) {
      const e = (() => {
        try {
          parseEnv({ ...base, TRUSTED_PROXIES: bad });
        } catch (err) {
          return err;
        }
      })();
      expect(e, bad).toBeInstanceOf(EnvError);
      expect((e as EnvError).problems[0]).toMatch(/^TRUSTED_PROXIES /);
    }
  });
});

describe("installPeerAddressHeader", () => {
  it("writes the socket's address into every request on Node's HTTP server, over any copy the client sent", async () => {
    installPeerAddressHeader();
    installPeerAddressHeader(); // idempotent
    setTestEnv({ TRUSTED_PROXIES: undefined });
    const seen: string[] = [];
    const server = createServer((req, res) => {
      seen.push(clientAddress(new Headers(req.headers as Record<string, string>)));
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      await (await fetch(url, { headers: { [PEER_HEADER]: "203.0.113.250", "X-Forwarded-For": "203.0.113.251" } })).text();
      await (await fetch(url)).text();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen).toEqual(["127.0.0.1", "127.0.0.1"]);
  });
});
