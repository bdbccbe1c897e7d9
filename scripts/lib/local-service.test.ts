import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureService } from "./local-service";
import { LOCAL_MARKER, serviceSetting } from "./service-config";

describe("serviceSetting", () => {
  it("starts the bundled service only when nothing is configured", () => {
    expect(serviceSetting({}, {})).toEqual({ kind: "bundled", port: "4010" });
    expect(serviceSetting({ SERVICE_PORT: "4100" }, {})).toEqual({ kind: "bundled", port: "4100" });
  });

  it("takes values the bundled service wrote (marked) as its own, also on the next start", () => {
    const file = { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "sk_local", SERVICE_PROJECTS: "a,b", [LOCAL_MARKER]: "http://127.0.0.1:4010" };
    expect(serviceSetting({}, file)).toEqual({ kind: "local", url: "http://127.0.0.1:4010", key: "sk_local", projects: ["a", "b"], port: "4010" });
  });

  it("takes anything a user set as their service, in the shell or in .env.local, even on this machine", () => {
    const marked = { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "sk_local", [LOCAL_MARKER]: "http://127.0.0.1:4010" };
    expect(serviceSetting({ SERVICE_URL: "http://127.0.0.1:5555" }, marked)).toMatchObject({ kind: "external", url: "http://127.0.0.1:5555", key: "sk_local", from: "shell" });
    expect(serviceSetting({}, { ...marked, SERVICE_URL: "https://mail.example.com" })).toMatchObject({ kind: "external", from: "file" });
    // Values without the marker (written by hand) are the user's.
    expect(serviceSetting({}, { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "k" })).toMatchObject({ kind: "external" });
  });

  it("says what is missing when only half is set", () => {
    expect(serviceSetting({ SERVICE_URL: "https://mail.example.com" }, {})).toEqual({
      kind: "incomplete",
      message: "SERVICE_URL is set but SERVICE_API_KEY is not. Set both to use your email service, or neither to use the bundled one.",
    });
  });
});

/**
 * A service that is not ours, as a user would point npm start at it: it has no
 * /v1/openapi.json, refuses unknown keys with a text 401, and knows only project "acme".
 */
describe("ensureService with a foreign service", () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (req.headers.authorization !== "Bearer sk_good") return void res.writeHead(401, { "Content-Type": "text/plain" }).end("API key revoked");
      if (req.url?.startsWith("/v1/templates") && req.headers["x-service-product"] === "acme") {
        return void res.writeHead(200, { "Content-Type": "application/json" }).end('{"data":[]}');
      }
      res.writeHead(404, { "Content-Type": "application/json" }).end(JSON.stringify({ error: "No such sender: " + req.headers["x-service-product"] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const envFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "start-")), ".env.local");
  function logger() {
    const lines: string[] = [];
    return { lines, log: { log: (m: string) => lines.push(m), warn: (m: string) => lines.push(m) } };
  }

  async function start(shell: Record<string, string>, file = envFile()) {
    const { lines, log } = logger();
    seen.length = 0;
    const choice = await ensureService(shell, file, log);
    // Never the bundled service: no child, no values for the dashboard beyond the user's.
    expect(choice.child).toBeNull();
    expect(choice.env).toEqual({});
    // Only operations of the interface were used to check it.
    for (const request of seen) expect(request).toMatch(/^GET \/v1\/templates\?limit=1$/);
    return { choice, output: lines.join("\n") };
  }

  it("uses it as it is when the key and every project are accepted", async () => {
    const { choice, output } = await start({ SERVICE_URL: url, SERVICE_API_KEY: "sk_good", SERVICE_PROJECTS: "acme" });
    expect(choice).toMatchObject({ url, problem: null });
    expect(output).toContain(`Using the email service at ${url}`);
  });

  it("reports a refused key with the service's words, and goes on", async () => {
    const { choice, output } = await start({ SERVICE_URL: url, SERVICE_API_KEY: "sk_old", SERVICE_PROJECTS: "acme" });
    expect(choice.problem).toMatchObject({ problem: "key_refused" });
    expect(output).toContain("refused the API key (SERVICE_API_KEY), HTTP 401: \"API key revoked\"");
    expect(output).toContain("Starting the dashboard anyway");
  });

  it("names the project the service does not know", async () => {
    const { choice, output } = await start({ SERVICE_URL: url, SERVICE_API_KEY: "sk_good", SERVICE_PROJECTS: "acme,ghost" });
    expect(choice.problem).toMatchObject({ problem: "unknown_project" });
    expect(output).toContain("project ghost: No such sender: ghost");
  });

  it("reports an unreachable service set in .env.local, on this machine, without starting the bundled one on its port", async () => {
    const file = envFile();
    writeFileSync(file, "SERVICE_URL=http://127.0.0.1:1\nSERVICE_API_KEY=sk_good\n");
    const { choice, output } = await start({}, file);
    expect(choice.problem).toMatchObject({ problem: "unreachable" });
    expect(output).toContain("The email service at http://127.0.0.1:1 cannot be reached");
    expect(output).toContain(`add ${LOCAL_MARKER}=http://127.0.0.1:1`);
    // The user's file is left as it was.
    expect(readFileSync(file, "utf8")).toBe("SERVICE_URL=http://127.0.0.1:1\nSERVICE_API_KEY=sk_good\n");
  });

  it("reuses the bundled service's own values when it is already running there", async () => {
    const file = envFile();
    writeFileSync(file, `SERVICE_URL=${url}\nSERVICE_API_KEY=sk_good\nSERVICE_PROJECTS=acme\n${LOCAL_MARKER}=${url}\n`);
    const { choice, output } = await start({}, file);
    expect(choice.problem).toBeNull();
    expect(output).toContain(`Using the local email service already running at ${url}`);
  });

  it("refuses to go on with half a configuration", async () => {
    await expect(ensureService({ SERVICE_URL: url }, envFile(), logger().log)).rejects.toThrow("SERVICE_API_KEY is not");
  });
});
