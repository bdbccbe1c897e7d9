import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DestinationBlockedError } from "@/contract/net/destination";
import { parseEnv } from "../env";
import { fetchOutbound, outboundPolicy } from "./outbound";
import { json, setTestEnv, startHttpServer, type TestServer } from "../test-helpers";

const base = { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "k", AUTH_SECRET: "x".repeat(32) };
let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((_req, res) => json(res, 200, { ok: true }));
});
afterAll(() => server.close());

describe("the dashboard's outbound fetches", () => {
  it("refuse private destinations unless the environment allows them", () => {
    expect(parseEnv(base)).toMatchObject({ OUTBOUND_ALLOW_HOSTS: [], OUTBOUND_ALLOW_PRIVATE: false });
    expect(parseEnv({ ...base, OUTBOUND_ALLOW_HOSTS: "wiki.lan, 10.0.0.5:8080", OUTBOUND_ALLOW_PRIVATE: "true" })).toMatchObject({
      OUTBOUND_ALLOW_HOSTS: ["wiki.lan", "10.0.0.5:8080"],
      OUTBOUND_ALLOW_PRIVATE: true,
    });
    expect(() => parseEnv({ ...base, OUTBOUND_ALLOW_PRIVATE: "yes" })).toThrow(/OUTBOUND_ALLOW_PRIVATE must be true or false/);
  });

  it("go through the destination policy of the environment", async () => {
    setTestEnv();
    expect(outboundPolicy()).toEqual({ allowHosts: [], allowPrivate: false });
    await expect(fetchOutbound(`${server.url}/x`)).rejects.toBeInstanceOf(DestinationBlockedError);
    expect(server.requests).toHaveLength(0);
    setTestEnv({ OUTBOUND_ALLOW_HOSTS: new URL(server.url).host });
    expect((await fetchOutbound(`${server.url}/x`)).status).toBe(200);
  });
});
