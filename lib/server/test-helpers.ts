import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { resetEnv } from "./env";

/** Test-only helpers: a real environment, a real HTTP server on an ephemeral port, a real session cookie. */

export const TEST_SECRET = "test-secret-test-secret-test-secret-0123456789";

export function setTestEnv(overrides: Record<string, string | undefined> = {}): void {
  const base: Record<string, string | undefined> = {
    SERVICE_URL: "http://127.0.0.1:9",
    SERVICE_API_KEY: "sk_test_account_wide_key",
    AUTH_SECRET: TEST_SECRET,
    PUBLIC_URL: "http://localhost:3000",
    LOGIN_THROTTLE_MAX: "5",
    LOGIN_THROTTLE_WINDOW_S: "900",
    SERVICE_TIMEOUT_MS: "2000",
    DATABASE_URL: undefined,
    ...overrides,
  };
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

export type RecordedRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
export type TestServer = { url: string; requests: RecordedRequest[]; close: () => Promise<void> };

/** A real HTTP server; `handler` answers each request after its body has been read. */
export async function startHttpServer(
  handler: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>,
): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() };
      requests.push(recorded);
      void Promise.resolve(handler(recorded, res)).catch((e) => {
        res.statusCode = 599;
        res.end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/**
 * A signed-in session as Auth.js would leave it: a row in `sessions` (signed in at `authAt`)
 * and the cookie pointing at it (http, so no __Secure- prefix). Needs the test database.
 */
export async function sessionCookie(userId: string, authAt = Date.now()): Promise<string> {
  const { createSession } = await import("./auth/sessions");
  const session = await createSession(userId, "password", authAt);
  return sessionCookieFor({ sub: userId, sid: session.id, authAt });
}

/** The cookie alone, for any claims (a forged or stale one included). */
export async function sessionCookieFor(claims: { sub?: string; sid?: string; authAt?: number }): Promise<string> {
  const name = "authjs.session-token";
  const token = await encode({ token: claims, secret: TEST_SECRET, salt: name });
  return `${name}=${token}`;
}

/** A request as the browser would send it to one of our route handlers. */
export function apiRequest(
  path: string,
  opts: { method?: string; body?: unknown; cookie?: string; origin?: string | null; headers?: Record<string, string> } = {},
) {
  const method = opts.method ?? "GET";
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.cookie) headers.cookie = opts.cookie;
  // Browsers send Origin on every non-GET fetch; `null` here means "leave it out".
  if (opts.origin !== null && method !== "GET") headers.origin = opts.origin ?? "http://localhost:3000";
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  // Imported lazily so files that do not test routes do not load Next.
  return import("next/server").then(
    ({ NextRequest }) =>
      new NextRequest(`http://localhost:3000${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body),
      }),
  );
}

export const params = <P extends Record<string, string>>(p: P) => ({ params: Promise.resolve(p) });
