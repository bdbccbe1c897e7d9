/**
 * Records real answers of both implementations for every operation of the interface:
 * `npx tsx e2e/contrarian-service/record-answers.ts`. Starts the bundled service (fresh data)
 * and the contrarian, runs recording/scenario.ts against each, and writes one JSON file per
 * exchange to recorded/<implementation>/. lib/server/service/recorded-answers.test.ts replays
 * them to the dashboard's service client. Run it again when either implementation changes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startChild, stopChildrenOnSignal, type Child } from "../../scripts/lib/child";
import { readEnvFile } from "../../scripts/lib/env-file";
import { BIN } from "../../scripts/lib/paths";
import { freePort } from "../../scripts/lib/ports";
import type { Implementation, RecordedExchange } from "./recording/format";
import { recordRateLimit, runScenario, type Subject } from "./recording/scenario";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT = path.join(HERE, "recorded");
const tmp = mkdtempSync(path.join(os.tmpdir(), "record-answers-"));
const children: Child[] = [];
stopChildrenOnSignal();

const PLAIN_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SERVICE_|CONTRARIAN_)/.test(k)));

async function bundled(name: string, extra: Record<string, string> = {}): Promise<Subject> {
  const envFile = path.join(tmp, `${name}.env`);
  const child = startChild({
    name,
    command: process.execPath,
    args: [BIN.tsx, "service/server.ts"],
    logFile: path.join(tmp, `${name}.log`),
    env: { ...PLAIN_ENV, SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(await freePort()), SERVICE_DATA_DIR: path.join(tmp, name), SERVICE_ENV_FILE: envFile, SERVICE_SANDBOX_STEP_MS: "100", ...extra },
  });
  children.push(child);
  const [, url] = await child.waitForLine(/listening on (http:\/\/\S+)/, 90_000);
  const written = readEnvFile(envFile);
  return {
    implementation: "bundled",
    url,
    key: written.SERVICE_API_KEY,
    project: written.SERVICE_PROJECTS.split(",")[0],
    address: { delivered: "delivered@example.com", bounced: "bounce+recorded@example.com", unfamiliarFinal: "fail@example.com" },
    finalStatuses: ["delivered", "bounced", "complained", "rejected", "failed"],
    newDomain: "recorded.test",
  };
}

async function contrarian(name: string, extra: Record<string, string> = {}): Promise<Subject> {
  const key = "recorder-account-key";
  const child = startChild({
    name,
    command: process.execPath,
    args: [BIN.tsx, "e2e/contrarian-service/server.ts"],
    logFile: path.join(tmp, `${name}.log`),
    env: { ...PLAIN_ENV, CONTRARIAN_PORT: String(await freePort()), CONTRARIAN_ACCOUNT_KEY: key, CONTRARIAN_STEP_MS: "100", CONTRARIAN_DOMAIN_VERIFY_MS: "300", ...extra },
  });
  children.push(child);
  const [, url] = await child.waitForLine(/listening on (http:\/\/\S+)/, 60_000);
  return {
    implementation: "contrarian",
    url,
    key,
    project: "orbit.live",
    address: { delivered: "ada@example.org", bounced: "bounce+recorded@example.org", unfamiliarFinal: "expire@example.org" },
    finalStatuses: ["delivery_succeeded", "hard_bounce", "spam_complaint", "expired", "blocked"],
    newDomain: "recorded.example.net",
  };
}

/** One-time secrets of these throw-away instances are masked all the same, keeping their form. */
function redact(exchange: RecordedExchange): RecordedExchange {
  if (!["api-keys.create", "webhooks.create"].includes(exchange.name)) return exchange;
  const body = JSON.parse(exchange.response.body) as Record<string, unknown>;
  for (const field of ["secret", "signingSecret"]) {
    const value = body[field];
    if (typeof value === "string") body[field] = value.slice(0, 6) + value.slice(6).replace(/[A-Za-z0-9]/g, "x");
  }
  return { ...exchange, response: { ...exchange.response, body: JSON.stringify(body) } };
}

function write(implementation: Implementation, exchanges: RecordedExchange[]): void {
  const dir = path.join(OUT, implementation);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const e of exchanges) writeFileSync(path.join(dir, `${e.name}.json`), `${JSON.stringify(redact(e), null, 2)}\n`);
  console.log(`${exchanges.length} answers of the ${implementation} implementation in ${path.relative(process.cwd(), dir)}/`);
}

try {
  const log = (line: string) => console.log(`  ${line}`);
  const b = await runScenario(await bundled("bundled"), log);
  b.push(await recordRateLimit(await bundled("bundled-limited", { SERVICE_RATE_LIMIT: "1", SERVICE_RATE_BURST: "1" })));
  write("bundled", b);
  const c = await runScenario(await contrarian("contrarian"), log);
  c.push(await recordRateLimit(await contrarian("contrarian-limited", { CONTRARIAN_RATE_LIMIT: "2", CONTRARIAN_RATE_WINDOW_MS: "2000" })));
  write("contrarian", c);
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(tmp, { recursive: true, force: true });
}
