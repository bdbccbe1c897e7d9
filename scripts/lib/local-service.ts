import { startChild, type Child } from "./child";
import { readEnvFile } from "./env-file";
import { BIN } from "./paths";

export interface ServiceChoice {
  url: string;
  /** The local service we started, or null when another one is used. */
  child: Child | null;
  /** SERVICE_* values for the dashboard. */
  env: Record<string, string>;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(new URL("/v1/openapi.json", url), { signal: AbortSignal.timeout(3_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The service the dashboard talks to. SERVICE_URL and SERVICE_API_KEY (shell or .env.local)
 * name one; if they point at this machine and nothing answers there, they are the local
 * service's own values from an earlier start, so the local service is started again.
 * Without them the local service starts, seeds its demo account and writes them.
 */
export async function ensureService(settings: Record<string, string | undefined>, envFile: string): Promise<ServiceChoice> {
  const configured = settings.SERVICE_URL && settings.SERVICE_API_KEY ? settings.SERVICE_URL : null;
  let port = settings.SERVICE_PORT || "4010";
  if (configured) {
    if (await answers(configured)) {
      console.log(`Using the email service at ${configured}.`);
      return { url: configured, child: null, env: {} };
    }
    const url = new URL(configured);
    if (!LOOPBACK.has(url.hostname)) {
      console.warn(`The email service at ${configured} does not answer; starting the dashboard anyway (it shows a banner until the service is back).`);
      return { url: configured, child: null, env: {} };
    }
    port = url.port || "80";
  }

  console.log(`Starting the local email service on port ${port}...`);
  const child = startChild({
    name: "service",
    command: process.execPath,
    args: [BIN.tsx, "service/server.ts"],
    env: { ...settings, SERVICE_PORT: port, SERVICE_ENV_FILE: settings.SERVICE_ENV_FILE || envFile },
    echo: "prefix",
  });
  const [, url] = await child.waitForLine(/listening on (http:\/\/\S+)/, 90_000);
  const written = { ...readEnvFile(settings.SERVICE_ENV_FILE || envFile), ...pick(settings) };
  if (!written.SERVICE_URL || !written.SERVICE_API_KEY) {
    await child.stop();
    throw new Error(`The local service started but SERVICE_URL/SERVICE_API_KEY are not in ${envFile}.`);
  }
  await checkKey(written, child);
  return { url, child, env: written };
}

function pick(settings: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["SERVICE_URL", "SERVICE_API_KEY", "SERVICE_PROJECTS"]) {
    const value = settings[key];
    if (value) out[key] = value;
  }
  return out;
}

/**
 * A key left in .env.local from a database that has since been deleted is refused by the
 * new one (the service never overwrites values already set); say so plainly.
 */
async function checkKey(values: Record<string, string>, child: Child): Promise<void> {
  const project = (values.SERVICE_PROJECTS ?? "").split(",")[0]?.trim();
  const response = await fetch(new URL("/v1/templates?limit=1", values.SERVICE_URL), {
    headers: { Authorization: `Bearer ${values.SERVICE_API_KEY}`, ...(project ? { "X-Service-Product": project } : {}) },
  }).catch(() => null);
  if (response?.status === 401) {
    await child.stop();
    throw new Error(
      "The local service refuses the SERVICE_API_KEY in .env.local: it belongs to an earlier, deleted database.\n" +
        "Remove the SERVICE_URL, SERVICE_API_KEY and SERVICE_PROJECTS lines from .env.local and run npm start again.",
    );
  }
}
