import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { json, startHttpServer, type TestServer } from "@/lib/server/test-helpers";
import { checkDestination, DestinationBlockedError, fetchPublic, isPublicIp, type Resolver } from "@/contract/net/destination";
import { classifyIp } from "@/contract/net/ip";

/**
 * Finding 4 of the security review (SSRF): a key limited to one project registered webhooks
 * to http://127.0.0.1:… and 169.254.169.254 and the service POSTed to them. A real HTTP
 * server on loopback stands in for "something on this machine"; names are resolved by
 * injected resolvers, so a name can point at loopback, or change its answer between the check
 * and the connection (DNS rebinding).
 */
let server: TestServer;
let port: string;
beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    if (req.url === "/redirect") {
      res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data" });
      res.end();
      return;
    }
    if (req.url === "/hang") return; // never answers
    if (req.url === "/half") {
      res.writeHead(200);
      res.write("the start, and never the rest");
      return;
    }
    json(res, 200, { got: req.body, host: req.headers.host });
  });
  port = new URL(server.url).port;
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const resolvesTo = (...answers: string[][]): Resolver & { calls: number } => {
  const r = Object.assign(async () => answers[Math.min(r.calls++, answers.length - 1)], { calls: 0 });
  return r;
};

describe("isPublicIp", () => {
  it.each([
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.0.1", "172.31.255.254", "192.168.0.10", "100.64.0.1", "100.127.255.254",
    "169.254.169.254", "169.254.10.10", "0.0.0.0", "224.0.0.251", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1",
    "fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe", "2002:c0a8:0001::1", "2001:db8::1", "not an ip",
  ])("refuses %s", (ip) => expect(isPublicIp(ip)).toBe(false));

  // Finding 9 of the second review: the IPv4-translated form (SIIT, ::ffff:0:0/96) was taken for a public address.
  it.each([
    ["::ffff:0:127.0.0.1", /loopback/],
    ["::ffff:0:7f00:1", /loopback/],
    ["::ffff:0:10.1.2.3", /RFC 1918/],
    ["::ffff:0:a9fe:a9fe", /metadata/],
    // Translated addresses mean something only behind a translator: refused whatever they carry.
    ["::ffff:0:8.8.8.8", /reserved/],
    // NAT64 (RFC 6052) and 6to4 (RFC 3056) forms are judged by the IPv4 address inside.
    ["64:ff9b::127.0.0.1", /loopback/],
    ["64:ff9b::c0a8:101", /RFC 1918/],
    ["2002:7f00:1::1", /loopback/],
    ["2002:a9fe:a9fe::", /metadata/],
    ["2002:a00:1:1::1", /RFC 1918/],
  ])("refuses the IPv4-embedding form %s for what it carries", (ip, reason) => {
    expect(isPublicIp(ip)).toBe(false);
    expect(classifyIp(ip)?.reason).toMatch(reason);
  });

  it.each(["8.8.8.8", "93.184.216.34", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])("accepts %s", (ip) =>
    expect(isPublicIp(ip)).toBe(true),
  );
});

describe("checkDestination", () => {
  it.each([
    ["http://127.0.0.1:8080/hook", /127\.0\.0\.1, a loopback address/],
    ["http://[::1]/hook", /loopback/],
    ["http://[::ffff:127.0.0.1]/hook", /loopback/],
    ["http://[::ffff:0:127.0.0.1]/hook", /loopback/],
    ["http://[64:ff9b::7f00:1]/hook", /loopback/],
    ["http://2130706433/hook", /127\.0\.0\.1, a loopback/], // the URL parser's decimal form
    ["http://0x7f.1/hook", /127\.0\.0\.1/],
    ["http://169.254.169.254/latest/meta-data", /metadata/],
    ["http://[fd00:ec2::254]/", /metadata/],
    ["http://metadata.google.internal/computeMetadata/v1/", /metadata/],
    ["http://10.0.0.5/", /RFC 1918/],
    ["http://100.64.1.1/", /carrier-grade NAT/],
    ["http://[fe80::1]/", /link-local/],
    ["http://[fd12:3456::1]/", /unique-local/],
    ["http://0.0.0.0:4010/", /unspecified/],
    ["http://[ff02::1]/", /multicast/],
    ["http://localhost:3000/api/ingest/x", /localhost, a loopback/],
    ["ftp://example.com/", /http or https/],
    ["not a url", /not a valid URL/],
  ])("refuses %s", async (url, reason) => {
    const result = await checkDestination(url, {}, resolvesTo(["93.184.216.34"]));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it("refuses a name that resolves to a private address, naming the address", async () => {
    const result = await checkDestination("https://hooks.attacker.test/x", {}, resolvesTo(["93.184.216.34", "10.1.2.3"]));
    expect(result).toEqual({ ok: false, reason: "hooks.attacker.test resolves to 10.1.2.3, a private network address (RFC 1918)" });
  });

  it("accepts a public destination and says where it resolves", async () => {
    expect(await checkDestination("https://hooks.example.test/x", {}, resolvesTo(["93.184.216.34"]))).toEqual({ ok: true, addresses: ["93.184.216.34"] });
    expect(await checkDestination("https://8.8.8.8/x")).toEqual({ ok: true, addresses: ["8.8.8.8"] });
  });

  it("allows private ranges when told to, but never a metadata address", async () => {
    expect((await checkDestination("http://127.0.0.1:9/x", { allowPrivate: true })).ok).toBe(true);
    expect((await checkDestination("http://192.168.1.20/x", { allowPrivate: true })).ok).toBe(true);
    expect((await checkDestination("http://169.254.169.254/", { allowPrivate: true })).ok).toBe(false);
    expect((await checkDestination("http://[::ffff:a9fe:a9fe]/", { allowPrivate: true })).ok).toBe(false);
  });

  it("allows exactly the listed host (and port)", async () => {
    const policy = { allowHosts: ["localhost:3000"] };
    const loopback = resolvesTo(["127.0.0.1"]);
    expect(await checkDestination("http://localhost:3000/api/ingest/acme", policy, loopback)).toEqual({ ok: true, addresses: ["127.0.0.1"] });
    expect((await checkDestination("http://localhost:3001/api/ingest/acme", policy, loopback)).ok).toBe(false);
    expect((await checkDestination("http://127.0.0.1:3000/", policy)).ok).toBe(false);
    expect((await checkDestination("http://127.0.0.1:3000/", { allowHosts: ["127.0.0.1"] })).ok).toBe(true);
  });

  it("an entry with a path allows only URLs under that path (the dashboard's ingest, not the rest of it)", async () => {
    const policy = { allowHosts: ["localhost:3000/api/ingest/"] };
    const loopback = resolvesTo(["127.0.0.1"]);
    expect((await checkDestination("http://localhost:3000/api/ingest/acme", policy, loopback)).ok).toBe(true);
    expect((await checkDestination("http://localhost:3000/api/ingest/acme?x=1", policy, loopback)).ok).toBe(true);
    for (const other of ["/api/auth/callback", "/api/ingest", "/api/ingestion/acme", "/api/ingest/../auth/x", "/api/ingest/%2e%2e/auth/x", "/API/ingest/acme"]) {
      expect((await checkDestination(`http://localhost:3000${other}`, policy, loopback)).ok, other).toBe(false);
    }
    expect((await checkDestination("http://localhost:3001/api/ingest/acme", policy, loopback)).ok).toBe(false);
    // Without a trailing slash: the path itself and below it.
    const exact = { allowHosts: ["127.0.0.1/hook"] };
    expect((await checkDestination("http://127.0.0.1:4000/hook", exact)).ok).toBe(true);
    expect((await checkDestination("http://127.0.0.1:4000/hook/a", exact)).ok).toBe(true);
    expect((await checkDestination("http://127.0.0.1:4000/hooks", exact)).ok).toBe(false);
    expect((await checkDestination("http://[::1]:3000/api/ingest/acme", { allowHosts: ["[::1]:3000/api/ingest/"] })).ok).toBe(true);
  });

  it("says when a name does not resolve", async () => {
    expect(await checkDestination("https://nowhere.test/", {}, async () => [])).toEqual({ ok: false, reason: "nowhere.test could not be resolved" });
  });
});

describe("fetchPublic", () => {
  it("refuses a loopback address without sending anything", async () => {
    await expect(fetchPublic(`${server.url}/hook`, { method: "POST", body: "{}" })).rejects.toBeInstanceOf(DestinationBlockedError);
    await expect(fetchPublic(`http://localhost:${port}/hook`)).rejects.toThrow(/loopback/);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses an IPv4-translated loopback address, literal or resolved, without sending anything", async () => {
    await expect(fetchPublic(`http://[::ffff:0:127.0.0.1]:${port}/hook`)).rejects.toThrow(/loopback/);
    await expect(fetchPublic(`http://translated.attacker.test:${port}/hook`, { resolve: resolvesTo(["::ffff:0:7f00:1"]) })).rejects.toThrow(/resolves to ::ffff:0:7f00:1, a loopback/);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses a name that resolves to loopback at connect time", async () => {
    await expect(fetchPublic(`http://hooks.attacker.test:${port}/hook`, { resolve: resolvesTo(["127.0.0.1"]) })).rejects.toThrow(
      /hooks\.attacker\.test resolves to 127\.0\.0\.1, a loopback/,
    );
    expect(server.requests).toHaveLength(0);
  });

  it("DNS rebinding: public when checked, loopback when connecting — refused at connect", async () => {
    const rebinding = resolvesTo(["93.184.216.34"], ["127.0.0.1"]);
    const url = `http://rebind.attacker.test:${port}/hook`;
    expect(await checkDestination(url, {}, rebinding)).toEqual({ ok: true, addresses: ["93.184.216.34"] });
    await expect(fetchPublic(url, { method: "POST", body: "{}", resolve: rebinding })).rejects.toBeInstanceOf(DestinationBlockedError);
    expect(rebinding.calls).toBe(2);
    expect(server.requests).toHaveLength(0);
  });

  it("connects to the address it checked, one lookup per connection, with the name as Host", async () => {
    const resolver = resolvesTo(["127.0.0.1"]);
    const res = await fetchPublic(`http://hooks.dev.test:${port}/hook`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
      policy: { allowPrivate: true },
      resolve: resolver,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ got: '{"a":1}', host: `hooks.dev.test:${port}` });
    expect(resolver.calls).toBe(1);
  });

  it("lets a listed host through whatever it resolves to", async () => {
    const res = await fetchPublic(`http://127.0.0.1:${port}/hook`, { policy: { allowHosts: [`127.0.0.1:${port}`] } });
    expect(res.status).toBe(200);
    await expect(fetchPublic(`http://127.0.0.1:${port}/hook`, { policy: { allowHosts: ["127.0.0.1:1"] } })).rejects.toBeInstanceOf(DestinationBlockedError);
  });

  it("does not follow redirects", async () => {
    const res = await fetchPublic(`${server.url}/redirect`, { policy: { allowPrivate: true } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://169.254.169.254/latest/meta-data");
    expect(server.requests.map((r) => r.url)).toEqual(["/redirect"]);
  });

  it("gives up after timeoutMs", async () => {
    await expect(fetchPublic(`${server.url}/hang`, { policy: { allowPrivate: true }, timeoutMs: 200 })).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("gives up after timeoutMs however often the garbage collector runs meanwhile", async () => {
    // On Node 20, AbortSignal.any([AbortSignal.timeout(ms)]) could be collected before it
    // fired (nodejs/node#57736), and a webhook delivery to a host that never answers hung for
    // good; a shared test process's heap made it happen.
    setFlagsFromString("--expose-gc");
    const collect = runInNewContext("gc") as () => void;
    const collecting = setInterval(collect, 25);
    try {
      const started = Date.now();
      const outcome = await Promise.race([
        fetchPublic(`${server.url}/hang`, { policy: { allowPrivate: true }, timeoutMs: 200 }).catch((error: Error) => error),
        new Promise((resolve) => setTimeout(() => resolve("still waiting after 3 s"), 3_000)),
      ]);
      expect(outcome).toMatchObject({ name: "TimeoutError" });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      clearInterval(collecting);
    }
  });

  it("gives up on an answer whose body stops coming, within timeoutMs", async () => {
    const started = Date.now();
    const res = await fetchPublic(`${server.url}/half`, { policy: { allowPrivate: true }, timeoutMs: 300 });
    expect(res.status).toBe(200);
    // The connection is cut at the deadline, so the body's read fails (Node names it "aborted").
    await expect(res.text()).rejects.toThrow(/aborted/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("stops when the caller's signal aborts", async () => {
    const caller = new AbortController();
    const pending = fetchPublic(`${server.url}/hang`, { policy: { allowPrivate: true }, timeoutMs: 5_000, signal: caller.signal });
    setTimeout(() => caller.abort(new Error("the caller gave up")), 50);
    await expect(pending).rejects.toThrow("the caller gave up");
  });
});
