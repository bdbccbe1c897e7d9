/**
 * One call of the interface as the dashboard makes it, shared by the recording scenario (over
 * HTTP) and the contrarian's tests (in-process): the key and project headers, a JSON body, and
 * the answer read as text and, when it parses, as JSON.
 */
export type CallOptions = { body?: unknown; key?: string | null; project?: string | null; headers?: Record<string, string> };
export type Answer = { status: number; text: string; json: any; headers: Headers };

export function callInit(method: string, opts: CallOptions): RequestInit {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.Authorization = `Bearer ${opts.key}`;
  if (opts.project) headers["X-Service-Product"] = opts.project;
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  return { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) };
}

export async function readAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, text, json, headers: response.headers };
}
