import { request, type IncomingHttpHeaders } from "node:http";

/**
 * Plain HTTP for the abuse suite, where a browser's request API cannot go: a chosen local
 * source address (127.0.0.2, 127.0.0.3…, so one test can be several clients without
 * TRUSTED_PROXIES), and a deadline on every call.
 */
export type Answer = { status: number; headers: IncomingHttpHeaders; text: string; json: unknown; ms: number };

export type CallOptions = {
  body?: string;
  headers?: Record<string, string>;
  cookie?: string;
  /** The local address to connect from (any of 127.0.0.0/8 on Linux). */
  localAddress?: string;
  timeoutMs?: number;
};

export function call(baseURL: string, method: string, path: string, o: CallOptions = {}): Promise<Answer> {
  const url = new URL(path, baseURL);
  const timeoutMs = o.timeoutMs ?? 30_000;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: false,
      localAddress: o.localAddress,
      headers: { ...(o.cookie ? { Cookie: o.cookie } : {}), ...(o.body !== undefined ? { "Content-Length": String(Buffer.byteLength(o.body)) } : {}), ...o.headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${url.pathname}: no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          // Not JSON: callers read status and text.
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, ms: performance.now() - started });
      });
      res.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
    req.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`${method} ${url.pathname}: ${e.message}`));
    });
    req.end(o.body);
  });
}

/** The `name=value` of each Set-Cookie of an answer. */
const cookiesOf = (headers: IncomingHttpHeaders) => (headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);

/**
 * A password sign-in through Auth.js's own endpoints (its CSRF token, then the credentials
 * callback), from `localAddress` when given. `code` is what the dashboard tells the sign-in
 * page (`invalid`, `throttled_<minutes>`…); `cookie` holds the session when `ok`.
 */
export async function signInOver(baseURL: string, user: { email: string; password: string }, localAddress?: string, timeoutMs = 15_000): Promise<{ ok: boolean; code: string | null; status: number; cookie: string }> {
  const csrf = await call(baseURL, "GET", "/api/auth/csrf", { localAddress, timeoutMs });
  const token = (csrf.json as { csrfToken?: string } | null)?.csrfToken;
  if (!token) throw new Error(`GET /api/auth/csrf: HTTP ${csrf.status} ${csrf.text.slice(0, 200)}`);
  const form = new URLSearchParams({ csrfToken: token, email: user.email, password: user.password, callbackUrl: `${baseURL}/` }).toString();
  const answer = await call(baseURL, "POST", "/api/auth/callback/credentials", {
    localAddress,
    timeoutMs,
    cookie: cookiesOf(csrf.headers).join("; "),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(baseURL).origin },
    body: form,
  });
  const location = new URL(String(answer.headers.location ?? "/"), baseURL);
  const cookies = [...cookiesOf(csrf.headers), ...cookiesOf(answer.headers)];
  const session = cookies.some((c) => /session-token=./.test(c));
  return { ok: session && !location.searchParams.has("error"), code: location.searchParams.get("code"), status: answer.status, cookie: cookies.join("; ") };
}
