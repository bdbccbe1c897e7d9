import type { Page, Response } from "@playwright/test";
import { expect, settle, test as base } from "../fixtures";
import { run, serviceKey } from "../support/run";
import { target } from "./targets";

export { expect };
export { target };

/** The project most journeys work in, and a second one to switch to (the overview's own). */
export const [project, otherProject] = [run.projects[0]!, run.projects[1] ?? run.projects[0]!];
export const projectPath = (p: string, screen = "") => `/p/${encodeURIComponent(p)}${screen ? `/${screen}` : ""}`;

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The screen's sign that a message is still moving (what must stop once it settled). */
export const inProgress = (page: Page) => page.getByText("Updating live");

/** What went wrong in the browser or on the dashboard's side while a journey ran. */
interface Watch {
  problems: string[];
}

/**
 * Console lines that are not faults: a 4xx the journey provokes on purpose (a refused
 * password), and the sandboxed email frames refusing the script the axe check tries to
 * inject into every frame (the sandbox doing its job; the frames are excluded from the check).
 */
const BENIGN_CONSOLE = [/Failed to load resource: the server responded with a status of 4\d\d/, /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed/];

/**
 * Every journey fails on a page error, a console error, or a 5xx from the dashboard's own
 * routes, whatever it was looking at: a broken screen that happens to show the expected
 * text must not pass.
 */
export const test = base.extend<{ watch: Watch }>({
  watch: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const origin = new URL(run.baseURL).origin;
      page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !BENIGN_CONSOLE.some((benign) => benign.test(message.text()))) problems.push(`console error: ${message.text().slice(0, 500)}`);
      });
      page.on("response", (response: Response) => {
        if (response.status() >= 500 && response.url().startsWith(origin)) {
          problems.push(`HTTP ${response.status()} from ${response.request().method()} ${new URL(response.url()).pathname}`);
        }
      });
      const watch = { problems };
      await use(watch);
      expect(problems, "page errors, console errors and 5xx answers of the dashboard during the journey").toEqual([]);
    },
    { auto: true },
  ],
});

/** Direct calls to the service with the account-wide key, as the customer's back end would make them. */
export async function service<T = unknown>(method: string, path: string, body?: unknown, projectId = project): Promise<{ status: number; json: T; text: string }> {
  const response = await fetch(`${run.serviceURL}${path}`, {
    method,
    headers: { Authorization: `Bearer ${serviceKey()}`, "X-Service-Product": projectId, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: callers read `text`.
  }
  return { status: response.status, json: json as T, text };
}

/** A verified sending domain of the project, as the service lists it. */
export async function verifiedDomain(projectId = project): Promise<string> {
  const answer = await service<{ data: { domain: string }[] }>("GET", "/v1/domains?status=verified", undefined, projectId);
  const domain = answer.json?.data?.[0]?.domain;
  if (!domain) throw new Error(`project ${projectId} has no verified domain: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return domain;
}

/** Sends one message straight through the service; any 2xx is success. */
export async function sendDirect(to: string, subject: string, projectId = project): Promise<string> {
  const from = `journeys@${await verifiedDomain(projectId)}`;
  const answer = await service<{ id: string }>("POST", "/v1/emails", { from: { email: from, name: "Journeys" }, to: [{ email: to }], subject, text: "Sent by a journey." }, projectId);
  if (answer.status < 200 || answer.status >= 300 || !answer.json?.id) throw new Error(`POST /v1/emails: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json.id;
}

/** The message as the service holds it: the truth the dashboard is compared with. */
export async function serviceMessage(id: string, projectId = project): Promise<{ status: string; [k: string]: unknown }> {
  const answer = await service<{ status: string }>("GET", `/v1/emails/${encodeURIComponent(id)}`, undefined, projectId);
  if (answer.status !== 200) throw new Error(`GET /v1/emails/${id}: HTTP ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.json;
}

/** Waits until the service says the message reached a final status, and returns that status. */
export async function finalStatus(id: string, projectId = project, timeoutMs = 30_000): Promise<string> {
  let status = "";
  await expect
    .poll(async () => (status = (await serviceMessage(id, projectId)).status), { timeout: timeoutMs, message: `message ${id} reaches a final status at the service` })
    .toMatch(new RegExp(`^(${target.truth.final.join("|")})$`));
  return status;
}

/**
 * As an admin would: if the messages screen says the project's event stream is not connected,
 * connect it there. (On a service at a loopback address the dashboard connects it by itself.)
 */
export async function connectEventStreamIfOffered(page: Page, projectId = project): Promise<void> {
  await page.goto(projectPath(projectId, "messages"));
  const connect = page.getByRole("button", { name: "Connect event stream" });
  if (await connect.isVisible()) {
    await connect.click();
    await expect(page.getByText("Event stream connected")).toBeVisible();
  }
}

/** Reloads the messages screen searched for `query` until a row containing `text` shows. */
export async function findInMessages(page: Page, query: string, text: string, timeoutMs = 15_000, projectId = project): Promise<void> {
  await expect
    .poll(
      async () => {
        await page.goto(`${projectPath(projectId, "messages")}?q=${encodeURIComponent(query)}`);
        await settle(page);
        return page.locator("tbody tr").filter({ hasText: text }).count();
      },
      { timeout: timeoutMs, message: `a row with "${text}" in Messages searched for "${query}"` },
    )
    .toBeGreaterThan(0);
}
