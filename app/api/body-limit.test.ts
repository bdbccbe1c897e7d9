import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as ingest } from "@/app/api/ingest/[project]/route";
import { POST as checkBatch } from "@/app/api/p/[project]/batches/check/route";
import { MAX_REQUEST_BYTES } from "@/lib/schemas/limits";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { params, sessionCookie, setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { hugeBody } from "@/contract/http/huge-body";
import { createUserRequest } from "@/lib/schemas/users";

/**
 * Finding 1 of the security review: a 400 MB chunked POST raised the server's memory by
 * 1.2 GB before the 413, because the body was read whole first. Here the bodies are produced
 * lazily and counted, so the test sees exactly how much the real handlers read.
 */
const HUGE = 400 * 1024 * 1024;
const CHUNK = 64 * 1024;
let dispose: () => Promise<void>;
let marketer: string;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  await registerProject({ externalId: "demo" }, SYSTEM_ACTOR, { checkWithService: false });
  marketer = await sessionCookie((await createUser(createUserRequest.parse({ email: "mia@example.com", role: "marketer", password: "correct horse battery", allProjects: true }), SYSTEM_ACTOR)).user.id);
});
afterAll(() => dispose());

function chunkedPost(url: string, stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new NextRequest(url, {
    method: "POST",
    body: stream,
    headers: { "content-type": "application/json", "transfer-encoding": "chunked", ...headers },
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
}

describe("request bodies are read with a byte cap", () => {
  it("the ingest route (no sign-in) refuses a stranger's 400 MB chunked body before reading it", async () => {
    // No stream is connected for this project, so no signature can verify: refused unread
    // (the ingest's own 1 MB cut-off for signed deliveries is in lib/server/event-stream/fast-path.test.ts).
    const body = hugeBody(HUGE, CHUNK);
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" };
    const res = await ingest(chunkedPost("http://localhost:3000/api/ingest/demo", body.stream, headers), { params: Promise.resolve({ project: "demo" }) });
    expect(res.status).toBe(401);
    expect(body.pulled()).toBeLessThanOrEqual(CHUNK);
  });

  it("parseBody (signed-in routes) refuses it the same way", async () => {
    const body = hugeBody(HUGE, CHUNK);
    const req = chunkedPost("http://localhost:3000/api/p/demo/batches/check", body.stream, { cookie: marketer, origin: "http://localhost:3000" });
    const res = await checkBatch(req, params({ project: "demo" }));
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatchObject({ code: "payload_too_large", param: "body" });
    expect(body.pulled()).toBeLessThanOrEqual(MAX_REQUEST_BYTES + CHUNK);
  });

  it("a body under the limit still arrives whole", async () => {
    const text = JSON.stringify({ csv: "email\nada@example.com" });
    const req = chunkedPost("http://localhost:3000/api/p/demo/batches/check", new Blob([text]).stream(), { cookie: marketer, origin: "http://localhost:3000" });
    const res = await checkBatch(req, params({ project: "demo" }));
    // Read and parsed: the schema names the first missing field.
    expect(res.status).toBe(400);
    expect((await res.json()).error.param).toBe("mapping");
  });
});
