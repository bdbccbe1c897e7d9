import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import type { Actor } from "@/lib/server/gate/access";
import { isAppError } from "@/lib/errors";
import { setTestEnv } from "@/lib/server/test-helpers";
import type { ExportColumn } from "./format";
import { cursorPages, exportResponse, type PageSource } from "./stream";
import { auditQuery } from "@/lib/schemas/audit";

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
const settle = (ms = 20) => new Promise((r) => setTimeout(r, ms));
const lastLine = (text: string) => text.trimEnd().split(/\r?\n/).at(-1)!;
const newestAudit = async (email: string) => (await listAudit(auditQuery.parse({ action: "export.numbers", actorId: undefined, q: email }))).data[0];

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
    const [entry] = (await listAudit(auditQuery.parse({ action: "export.numbers" }))).data;
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
    const [entry] = (await listAudit(auditQuery.parse({ action: "export.numbers", actorId: undefined, q: "u3@example.com" }))).data;
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
    const [entry] = (await listAudit(auditQuery.parse({ action: "export.numbers", outcome: "failure" }))).data;
    expect(entry).toMatchObject({ actorEmail: "u6@example.com", detail: { rows: 0, ended: "failed" } });
  });

  it("ends at its row limit with a line saying so, and audits the limit", async () => {
    const { state, source } = counted(1_000);
    const res = await exportResponse({ actor: actor("u7"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: source, limits: { maxRows: 25 } });
    expect(res.headers.get("x-export-row-limit")).toBe("25");
    const lines = (await res.text()).replace(/^\ufeff/, "").trimEnd().split("\r\n");
    expect(lines.slice(0, -1)).toEqual(["n", ...Array.from({ length: 25 }, (_, i) => String(i))]);
    expect(lines.at(-1)).toBe("# Export stopped after 25 rows: it reached its limit of 25 rows. Narrow the search to export the rest.");
    expect(state.reads).toBe(3);
    await settle();
    expect((await newestAudit("u7@example.com"))!.detail).toEqual({ format: "csv", filter: {}, rows: 25, ended: "limit", limit: "rows" });
  });

  it("cannot be given a looser limit than the dashboard's", async () => {
    const res = await exportResponse({ actor: actor("u8"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1).source, limits: { maxRows: 10_000_000 } });
    expect(res.headers.get("x-export-row-limit")).toBe("1000000");
    await res.text();
  });

  it("ends at its time limit with a line saying so (NDJSON), and audits the limit", async () => {
    // Pages that take 30 ms each: a 100 ms export writes a few of them, then stops before the next read.
    let reads = 0;
    const slow: PageSource<number> = async function* (signal) {
      for (let p = 0; p < 1_000 && !signal.aborted; p++) {
        reads++;
        await settle(30);
        yield [p];
      }
    };
    const res = await exportResponse({ actor: actor("u9"), project: null, kind: "numbers", filter: {}, format: "ndjson", columns: COLUMNS, pages: slow, limits: { maxMs: 100 } });
    const lines = (await res.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
    const stopLine = lines.at(-1);
    expect(stopLine).toMatchObject({ export_stopped: "time", rows: lines.length - 1 });
    expect(stopLine.message).toMatch(/^Export stopped after \d+ rows: it ran for its limit of 0 minutes\./);
    expect(lines.length - 1).toBeGreaterThan(0);
    expect(lines.length - 1).toBeLessThan(10);
    const readsAtEnd = reads;
    await settle(100);
    expect(reads).toBe(readsAtEnd);
    expect((await newestAudit("u9@example.com"))!.detail).toMatchObject({ rows: lines.length - 1, ended: "limit", limit: "time" });
  });

  it("lets go of its slot at the time limit when the client stops reading, and the file still says why it ended", async () => {
    const { state, source } = counted(1_000);
    const res = await exportResponse({ actor: actor("u10"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: source, limits: { maxMs: 80 } });
    const reader = res.body!.getReader();
    await reader.read();
    await settle(200);
    // The user's one export is over: a new one starts.
    await (await exportResponse({ actor: actor("u10"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: counted(1).source })).text();
    expect(state.reads).toBeLessThanOrEqual(2);
    let rest = "";
    const decoder = new TextDecoder();
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += decoder.decode(r.value);
    expect(lastLine(rest)).toMatch(/^# Export stopped after \d+ rows: it ran for its limit of 0 minutes\./);
    const entries = (await listAudit(auditQuery.parse({ action: "export.numbers", actorId: undefined, q: "u10@example.com" }))).data;
    expect(entries.map((e) => e.detail.limit ?? null)).toEqual([null, "time"]);
  });

  it("says so when its source stopped at its page limit with more to read, and not when the list ended there", async () => {
    const endless = cursorPages(async (cursor) => ({ data: [Number(cursor ?? 0)], nextCursor: String(Number(cursor ?? 0) + 1) }), 3);
    const res = await exportResponse({ actor: actor("u11"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: endless });
    const text = await res.text();
    expect(text.replace(/^\ufeff/, "").split("\r\n").slice(0, 4)).toEqual(["n", "0", "1", "2"]);
    expect(lastLine(text)).toBe("# Export stopped after 3 rows: it read the 3 pages one export may ask the service for. Narrow the search to export the rest.");
    await settle();
    expect((await newestAudit("u11@example.com"))!.detail).toMatchObject({ rows: 3, ended: "limit", limit: "pages" });

    const exact = cursorPages(async (cursor) => ({ data: [Number(cursor ?? 0)], nextCursor: cursor === "2" ? null : String(Number(cursor ?? 0) + 1) }), 3);
    const whole = await (await exportResponse({ actor: actor("u12"), project: null, kind: "numbers", filter: {}, format: "csv", columns: COLUMNS, pages: exact })).text();
    expect(lastLine(whole)).toBe("2");
    await settle();
    expect((await newestAudit("u12@example.com"))!.detail).toEqual({ format: "csv", filter: {}, rows: 3 });
  });
});
