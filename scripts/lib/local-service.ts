import { checkServiceAccess, type AccessCheck } from "../../lib/server/service/access-check";
import { startChild, type Child, type ChildOptions } from "./child";
import { readEnvFile, setEnvValue } from "./env-file";
import { BIN } from "./paths";
import { LOCAL_MARKER, LOCAL_MARKER_COMMENT, projectList, serviceSetting } from "./service-config";

export interface ServiceChoice {
  url: string;
  /** The local service we started, or null when another one is used. */
  child: Child | null;
  /** SERVICE_* values for the dashboard. */
  env: Record<string, string>;
  /** What is wrong with the configured service, when something is; the dashboard starts anyway and shows it. */
  problem: AccessCheck | null;
}

type Vars = Record<string, string | undefined>;
type Log = Pick<Console, "log" | "warn">;

/**
 * The service the dashboard talks to (scripts/lib/service-config.ts decides which). The
 * bundled one is started only when no service is configured or the configured values are its
 * own; a service the user configured is checked with an operation of the interface and never
 * replaced: what is wrong is printed, and the dashboard starts anyway with a banner saying it.
 */
export async function ensureService(shell: Vars, envFile: string, log: Log = console, echo: ChildOptions["echo"] = "prefix"): Promise<ServiceChoice> {
  const serviceEnvFile = shell.SERVICE_ENV_FILE || envFile;
  const file = { ...readEnvFile(envFile), ...(serviceEnvFile !== envFile ? readEnvFile(serviceEnvFile) : {}) };
  const setting = serviceSetting(shell, file);

  if (setting.kind === "incomplete") throw new Error(setting.message);

  if (setting.kind === "external") {
    log.log(`Using the email service at ${setting.url} (SERVICE_URL from ${setting.from === "shell" ? "the environment" : envFile}).`);
    const check = await checkServiceAccess({ url: setting.url, key: setting.key, projects: setting.projects });
    if (check.problem) {
      const hint =
        check.problem === "unreachable" && setting.from === "file" && /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(setting.url)
          ? `\n  If an earlier npm start wrote these values for the bundled service, add ${LOCAL_MARKER}=${setting.url} to ${envFile} (or remove its SERVICE_* lines) and start again.`
          : "";
      log.warn(`\n  ${check.reason}${hint}\n  Starting the dashboard anyway: every screen shows this until it is fixed.\n`);
    }
    return { url: setting.url, child: null, env: {}, problem: check.problem ? check : null };
  }

  if (setting.kind === "local") {
    // Its own values from an earlier start: already running (npm run service)? Then use it.
    const check = await checkServiceAccess({ url: setting.url, key: setting.key, projects: setting.projects, timeoutMs: 3_000 });
    if (check.problem === "key_refused") throw refusedLocal(check, envFile);
    if (check.problem !== "unreachable") {
      log.log(`Using the local email service already running at ${setting.url}.`);
      if (check.problem) log.warn(`\n  ${check.reason}\n`);
      return { url: setting.url, child: null, env: {}, problem: check.problem ? check : null };
    }
  }

  const port = setting.port;
  log.log(`Starting the local email service on port ${port}...`);
  const child = startChild({
    name: "service",
    command: process.execPath,
    args: [BIN.tsx, "service/server.ts"],
    env: { ...shell, SERVICE_PORT: port, SERVICE_ENV_FILE: serviceEnvFile },
    echo,
  });
  const [, url] = await child.waitForLine(/listening on (http:\/\/\S+)/, 90_000);
  const written = { ...readEnvFile(serviceEnvFile), ...pick(shell) };
  if (!written.SERVICE_URL || !written.SERVICE_API_KEY) {
    await child.stop();
    throw new Error(`The local service started but SERVICE_URL/SERVICE_API_KEY are not in ${serviceEnvFile}.`);
  }
  // The values it wrote stay "the bundled service" on the next start (service-config.ts).
  if (written.SERVICE_URL === url) setEnvValue(envFile, LOCAL_MARKER, url, LOCAL_MARKER_COMMENT);
  const check = await checkServiceAccess({ url: written.SERVICE_URL, key: written.SERVICE_API_KEY, projects: projectList(written.SERVICE_PROJECTS) });
  if (check.problem === "key_refused") {
    await child.stop();
    throw refusedLocal(check, envFile);
  }
  return { url, child, env: written, problem: check.problem ? check : null };
}

function pick(settings: Vars): Record<string, string> {
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
function refusedLocal(check: AccessCheck, envFile: string): Error {
  return new Error(
    `${check.reason}\nThe key in ${envFile} belongs to an earlier, deleted database of the local service.\n` +
      `Remove the SERVICE_URL, SERVICE_API_KEY, SERVICE_PROJECTS and ${LOCAL_MARKER} lines from ${envFile} and run npm start again.`,
  );
}
