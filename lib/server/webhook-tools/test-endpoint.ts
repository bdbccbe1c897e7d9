import "server-only";
import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { DestinationBlockedError, type TlsSummary } from "@/contract/net/destination";
import { AppError } from "@/lib/errors";
import { recordAudit } from "@/lib/server/audit";
import type { Actor, Project } from "@/lib/server/gate/access";
import { fetchOutbound } from "@/lib/server/http/outbound";
import { busyError, oneAtATime } from "@/lib/server/limits/one-at-a-time";
import { WEBHOOK_TEST, type webhookTestRequest, type WebhookTestResult } from "@/lib/schemas/webhook-test";
import type { z } from "zod";
import { firstBytes } from "./first-bytes";
import { perMinute } from "../limits/per-minute";
import { sampleEvent } from "./sample-event";

/**
 * "Test an endpoint" (issue 29): one sample event to a URL an admin typed, as the service would
 * deliver it — the interface's delivery shape, signed the Standard Webhooks way with the
 * `standardwebhooks` package the service signs with, when a secret is given. The URL is
 * someone else's, so the request is the dashboard's outbound kind (lib/server/http/outbound.ts):
 * public addresses only unless OUTBOUND_ALLOW_PRIVATE / OUTBOUND_ALLOW_HOSTS say otherwise
 * (a refusal is a 400 on `url` naming the rule), no redirects followed, WEBHOOK_TEST.timeoutMs
 * for the whole exchange, and only the answer's first WEBHOOK_TEST.answerBytes read. One test
 * at a time per user and WEBHOOK_TEST.perUserPerMinute a minute, each audited (the URL masked).
 */
const oneTestAtATime = oneAtATime("webhook-test", () => busyError("webhook_test_running", "A test of yours is still running: wait for its answer.", 2));
const testsPerMinute = perMinute("webhook-test", WEBHOOK_TEST.perUserPerMinute);

export async function testEndpoint(project: Project, actor: Actor, input: z.output<typeof webhookTestRequest>): Promise<WebhookTestResult> {
  const wait = testsPerMinute.take(actor.id);
  if (wait !== null) throw busyError("webhook_tests_limit", `At most ${WEBHOOK_TEST.perUserPerMinute} endpoint tests a minute per user: try again in ${wait} s.`, wait);
  return oneTestAtATime(actor.id, async () => {
    const audit = { actor, action: "webhook.test", project: project.externalId, target: input.url };
    try {
      const result = await send(project, input);
      await recordAudit({ ...audit, outcome: result.error ? "failure" : "success", detail: { status: result.status, ms: result.ms, signed: result.signed, eventType: input.eventType, ...(result.error ? { error: result.error } : {}) } });
      return result;
    } catch (e) {
      await recordAudit({ ...audit, outcome: "failure", detail: { error: e instanceof AppError ? e.message : "internal_error" } }).catch(() => {});
      throw e;
    }
  });
}

async function send(project: Project, input: z.output<typeof webhookTestRequest>): Promise<WebhookTestResult> {
  const body = JSON.stringify(sampleEvent(input.eventType, project.externalId));
  const webhookId = `msg_test_${randomUUID().replaceAll("-", "")}`;
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "mail-dashboard webhook test" };
  if (input.secret) {
    const at = new Date();
    headers["webhook-id"] = webhookId;
    headers["webhook-timestamp"] = String(Math.floor(at.getTime() / 1000));
    headers["webhook-signature"] = signed(input.secret, webhookId, at, body);
  }
  let tls: TlsSummary | null = null;
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const base = { tls: null, answer: "", answerCut: false, signed: Boolean(input.secret), webhookId };
  try {
    const res = await fetchOutbound(input.url, { method: "POST", headers, body, timeoutMs: WEBHOOK_TEST.timeoutMs, onTls: (t) => (tls = t) });
    const answer = await firstBytes(res, WEBHOOK_TEST.answerBytes);
    return { ...base, status: res.status, statusText: res.statusText || null, ms: ms(), tls, answer: answer.text, answerCut: answer.cut, error: null };
  } catch (e) {
    if (e instanceof DestinationBlockedError) {
      throw new AppError(400, "validation_error", `url: ${e.message.replace(/\.$/, "")} (OUTBOUND_ALLOW_PRIVATE or OUTBOUND_ALLOW_HOSTS would allow it).`, "url");
    }
    return { ...base, status: null, statusText: null, ms: ms(), tls, error: failure(e) };
  }
}

/** The Standard Webhooks signature of the sample; a secret the scheme cannot read is a 400 on `secret`. */
function signed(secret: string, id: string, at: Date, body: string): string {
  try {
    // The package takes `whsec_<base64>` or bare base64; any other text is signed as its bytes, as ./verify.ts reads it.
    return new Webhook(/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/.test(secret) ? secret : Buffer.from(secret).toString("base64")).sign(id, at, body);
  } catch {
    throw new AppError(400, "validation_error", "secret: is not a signing secret (whsec_ followed by base64, or the secret's text)", "secret");
  }
}

/** Why no answer came, in words (a timeout, a refused connection, a TLS failure), never the stack. */
function failure(e: unknown): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError")) return `no answer within ${WEBHOOK_TEST.timeoutMs / 1000} s`;
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e instanceof Error ? e : null;
  const code = cause && "code" in cause ? String((cause as { code?: unknown }).code) : null;
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ENOTFOUND") return "the host name could not be resolved";
  if (code === "ECONNRESET") return "the connection was reset";
  if (code && /CERT|SSL|TLS/.test(code)) return `TLS failed: ${code}`;
  return code ? `the request failed (${code})` : "the request failed";
}
