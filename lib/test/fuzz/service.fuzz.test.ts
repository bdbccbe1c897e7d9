import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestService, type TestService } from "@/service/test/harness";
import { addVerifiedDomain } from "@/service/test/sending-fixtures";
import { assertProperty, bodyArb, FUZZ, namesAField, queryArb, safeEncode, type BodyCase } from "./arbitrary";

/**
 * Every operation of the bundled service, found in its own OpenAPI registry, fed input
 * generated from its zod schemas and hostile mutations of it (malformed JSON, wrong types,
 * NUL bytes, huge strings, deep nesting, bad UTF-8 and percent-encoding), with every kind of
 * key. Properties: no answer is a 5xx; every 400 names its field.
 */
type RouteDef = {
  method: string;
  path: string;
  request?: { params?: unknown; query?: unknown; body?: { content?: Record<string, { schema?: unknown }> } };
};

let svc: TestService;
let cases = 0;
const ids: Record<string, string[]> = { id: ["msg_none"], attachmentId: ["att_none"] };

beforeAll(async () => {
  // No DNS from the fuzz run: every webhook host "does not resolve".
  svc = await createTestService({ worker: true, resolve: async () => [] });
  await addVerifiedDomain(svc.db, svc.alpha.id, "alpha.test");
  const sent = await (await svc.call("POST", "/v1/emails", { body: { from: { email: "a@alpha.test" }, to: [{ email: "delivered@example.com" }], subject: "s", text: "t" } })).json();
  const contact = await (await svc.call("POST", "/v1/contacts", { body: { email: "fuzz@example.com" } })).json();
  const templates = await (await svc.call("GET", "/v1/templates")).json();
  ids.id = [sent.id, contact.id, ...(templates.data ?? []).map((t: { id: string }) => t.id), "msg_none"];
});
afterAll(async () => {
  console.log(`fuzz: bundled service, ${cases} requests (seed ${FUZZ.seed}, ${FUZZ.runs * 8} runs per operation)`);
  await svc.close();
});

const RAW_SEGMENTS = ["%zz", "%00", "%E0%A4%A", "abc%", "%C3%28", "..", "%2F", "a%00b"];

function routes(): RouteDef[] {
  return svc.app.openAPIRegistry.definitions.flatMap((d) => (d.type === "route" ? [d.route as unknown as RouteDef] : []));
}

describe("fuzz: the bundled service", () => {
  it("covers every operation of the interface", () => {
    const ops = routes().map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(ops.length).toBeGreaterThanOrEqual(21);
    expect(ops).toEqual(expect.arrayContaining(["POST /v1/emails", "GET /v1/emails/{id}", "POST /v1/webhooks", "DELETE /v1/webhooks/{id}"]));
  });

  it("answers no 5xx to any input, and names the field of every 400", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (const route of routes()) {
        const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        const bodySchema = route.request?.body?.content?.["application/json"]?.schema ?? null;
        const segment = fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...ids.id).map(safeEncode) },
          { weight: 2, arbitrary: fc.string({ maxLength: 30 }).filter(Boolean).map(safeEncode) },
          { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
        );
        const who = fc.constantFrom("account-alpha", "account-beta", "account-unknown", "account-none", "alpha-key", "alpha-key-beta", "none", "garbage");
        const contentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "");
        await assertProperty(
          fc.asyncProperty(who, fc.array(segment, { minLength: names.length, maxLength: names.length }), queryArb(route.request?.query ?? null), bodyArb(bodySchema), contentType, async (as, segs, query, body, type) => {
            let path = route.path;
            names.forEach((n, i) => (path = path.replace(`{${n}}`, segs[i])));
            const res = await send(route.method.toUpperCase(), `${path}${query ? `?${query}` : ""}`, as, route.method === "get" ? null : body, type);
            cases++;
            const text = await res.text();
            if (res.status >= 500) throw new Error(`${route.method.toUpperCase()} ${path} → ${res.status}: ${text.slice(0, 300)}`);
            if (res.status === 400) {
              const parsed = JSON.parse(text) as { error?: { param?: unknown; message?: unknown } };
              if (!namesAField(parsed.error)) throw new Error(`${route.method.toUpperCase()} ${path} → 400 without a field: ${text.slice(0, 300)}`);
            }
          }),
          { numRuns: FUZZ.runs * 8, seed: FUZZ.seed },
        );
      }
    } finally {
      error.mockRestore();
    }
  });
});

async function send(method: string, path: string, as: string, body: BodyCase | null, contentType: string): Promise<Response> {
  const headers: Record<string, string> = {};
  if (as.startsWith("account")) headers.Authorization = `Bearer ${svc.accountKey}`;
  if (as.startsWith("alpha-key")) headers.Authorization = `Bearer ${svc.alphaKey}`;
  if (as === "garbage") headers.Authorization = "Bearer sk_not_a_key";
  if (as === "account-alpha") headers["X-Service-Product"] = "alpha";
  if (as === "account-beta" || as === "alpha-key-beta") headers["X-Service-Product"] = "beta";
  if (as === "account-unknown") headers["X-Service-Product"] = "nope";
  let payload: string | Uint8Array | undefined;
  if (body) {
    payload = "json" in body ? JSON.stringify(body.json) ?? "" : body.raw;
    if (contentType) headers["Content-Type"] = contentType;
  }
  return svc.app.request(path, { method, headers, body: payload as BodyInit | undefined });
}
