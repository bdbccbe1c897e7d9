import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import type { Actor } from "@/lib/server/gate/access";
import { isAppError } from "@/lib/errors";
import { setTestEnv } from "@/lib/server/test-helpers";
import type { ExportColumn } from "./format";
import { exportResponse, type PageSource } from "./stream";

/**
 * The export machinery itself: reads a page only when the client takes one (so a client that
 * goes away stops the reading), one export per user, audited with the count so far.
 */
let dispose: () => Promise<void>;
beforeAll(async () => {
  setTestEnv({});
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

const actor = (id: string) => ({ id, email: `${id}@example.com` }) as Actor;
const COLUMNS: ExportColumn<number>[] = [{ header: "n", value: (n) => n }];

/** A source of `pages` pages of 10 numbers that counts its reads. */
function counted(pages: number, empty: number[] = []) {
  const state = { reads: 0 };
  const source: PageSource<number> = async function* (signal) {
    for (let p = 0; p < pages && !signal.aborted; p++) {
      state.reads++;
      yield empty.includes(p) ? [] : Array.from({ length: 10 }, (_, i) => p * 10 + i);
    }
  };
  return { state, source };
}
const settle = () => new Promise((r) => setTimeout(r, 20));

describe("exportResponse", () => {
  it("reads no further than the client has taken, and stops when it cancels", async () => {
    const { state, source } = counted(1_000);
    const res = await exportResponse({ actor: actor("u1"), project: null, kind: "numbers", filter: { q: "x" }, format: "csv", columns: COLUMNS, pages: source });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    await settle();
    // The first page was read before answering; a page at most waits ahead of the client.
    expect(state.reads).toBeLessThanOrEqual(3);
    await reader.cancel();
    const readsAtCancel = state.reads;
    await settle();
    expect(state.reads).toBe(readsAtCancel);
    const [entry] = (await listAudit({ action: "export.numbers" })).data;
    expect(entry).toMatchObject({ actorEmail: "u1@example.com", outcome: "success", detail: { format: "csv", filter: { q: "x" }, ended: "cancelled" } });
    expect(entry!.detail.rows).toBeLessThanOrEqual(30);
  });

  it("stops reading when the request's signal aborts (the client went away)", async () => {
    const { state, source } = counted(1_000);
    const client = new AbortController();
    const res = await exportResponse({ actor: actor("u2"), project: null, kind: "numbers", filter: {}, format: "ndjson", columns: COLUMNS, pages: source, signal: client.signal });
    const reader = res.body!.getReader();
    await reader.read();
    client.abort();
    await settle();
    const reads = state.reads;
    await reader.read().catch(() => {});
    await settle();
    expect(state.reads).toBe(reads);
    expect(reads).toBeLessThan(5);
  });

  it("writes every page, empty ones included, and counts the rows", async () => {
    const { source } = counted(7, [0, 3]);
    const res = await exportResponse({ actor: actor("u3"), project: null, kind: "numbers", filter: {}, format: "ndjson", columns: COLUMNS, pages: source });
    const lines = (await res.text()).trim().split("\n");
    expect(lines).toHaveLength(50);
    await settle();
    const [entry] = (await listAudit({ action: "export.numbers", actorId: undefined, q: "u3@example.com" })).data;
    expect(entry!.detail).toEqual({ format: "ndjson", filter: {}, rows: 50 });
  });

  it("allows one export per user at a time: a second is a 429 with Retry-After", async () => {
    const first = await exportResponse({ actor: actor("u4"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1_000).source });
    const second = await exportResponse({ actor: actor("u4"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1).source }).catch((e) => e);
    expect(isAppError(second) && second.status === 429 && second.retryAfterMs).toBe(10_000);
    // Another user is not held up.
    await (await exportResponse({ actor: actor("u5"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1).source })).text();
    await first.body!.cancel();
    await settle();
    const again = await exportResponse({ actor: actor("u4"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1).source });
    expect((await again.text()).split("\r\n").filter(Boolean)).toHaveLength(11);
  });

  it("answers a failing first read with the error, not a cut-off file, and audits the failure", async () => {
    const failing: PageSource<number> = async function* () {
      throw new Error("database gone");
    };
    await expect(exportResponse({ actor: actor("u6"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: failing })).rejects.toThrow("database gone");
    const [entry] = (await listAudit({ action: "export.numbers", outcome: "failure" })).data;
    expect(entry).toMatchObject({ actorEmail: "u6@example.com", detail: { rows: 0, ended: "failed" } });
  });
});
