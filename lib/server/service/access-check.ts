import { summarizeErrorBody } from "./error-body";
import { serviceHeaders } from "./headers";
import type { HEALTH_PROBLEMS } from "../../schemas/health";

/**
 * Can the dashboard use the configured service? Asked with an operation OF THE INTERFACE
 * (listing one template, with each project's header), since the interface has no health or
 * discovery endpoint. Used by `npm start` before the dashboard starts and by the dashboard's
 * own probe for the banner, so both say the same thing in the same words.
 *
 * No "server-only" import: scripts/ runs this outside Next.
 */
export type AccessProblem = (typeof HEALTH_PROBLEMS)[number];
export type AccessCheck = {
  /** Null when the service answered as expected. */
  problem: AccessProblem | null;
  /** One plain sentence for the operator, with what the service said. */
  reason: string | null;
  /** Time of the first answer, null when none came. */
  latencyMs: number | null;
};

export type AccessTarget = { url: string; key: string; projects: readonly string[]; timeoutMs?: number };

/** At most this many projects are asked about on each check, so a long SERVICE_PROJECTS never floods the service. */
const MAX_PROJECTS_CHECKED = 10;

type Answer = { status: number; said: string | null } | { error: string };

async function ask(target: AccessTarget, project: string | null): Promise<Answer> {
  const base = new URL(target.url);
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  const url = new URL("v1/templates?limit=1", base);
  try {
    const res = await fetch(url, {
      headers: serviceHeaders({ key: target.key, project }),
      redirect: "manual",
      signal: AbortSignal.timeout(target.timeoutMs ?? 5_000),
      cache: "no-store",
    });
    const text = await res.text().catch(() => "");
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, said: summarizeErrorBody(json, text).message };
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === "TimeoutError" || err.name === "AbortError") return { error: `no answer within ${Math.round((target.timeoutMs ?? 5_000) / 1000)} s` };
    return { error: err.cause?.code ?? err.cause?.message ?? err.message };
  }
}

const quoted = (said: string | null) => (said ? `: "${said.slice(0, 200)}"` : "");

export async function checkServiceAccess(target: AccessTarget): Promise<AccessCheck> {
  const projects = target.projects.slice(0, MAX_PROJECTS_CHECKED);
  const started = performance.now();
  let latencyMs: number | null = null;
  const unknown: string[] = [];
  for (const project of projects.length ? projects : [null]) {
    const answer = await ask(target, project);
    latencyMs ??= "error" in answer ? null : Math.round(performance.now() - started);
    if ("error" in answer) {
      return { problem: "unreachable", reason: `The email service at ${target.url} cannot be reached (${answer.error}).`, latencyMs: null };
    }
    const { status, said } = answer;
    if (status === 401 || (status === 403 && project === null)) {
      return { problem: "key_refused", reason: `The email service refused the API key (SERVICE_API_KEY), HTTP ${status}${quoted(said)}.`, latencyMs };
    }
    if (status >= 500) {
      return { problem: "failing", reason: `The email service answers with errors (HTTP ${status})${quoted(said)}.`, latencyMs };
    }
    if (status >= 300 && status < 400) {
      return { problem: "failing", reason: `The email service answered with a redirect (HTTP ${status}); check SERVICE_URL.`, latencyMs };
    }
    // 2xx: the project is known; 429: busy, which proves nothing either way; without a
    // project, any other 4xx still shows the service is there and took the key.
    if (project !== null && status >= 400 && status !== 429) unknown.push(`project ${project}: ${said ?? `HTTP ${status}`}`);
  }
  if (unknown.length) {
    return { problem: "unknown_project", reason: `The email service does not accept ${unknown.length === 1 ? "a project" : "some projects"} in SERVICE_PROJECTS (${unknown.join("; ")}).`, latencyMs };
  }
  return { problem: null, reason: null, latencyMs };
}
