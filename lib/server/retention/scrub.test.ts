import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, like } from "drizzle-orm";
import type { Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { redactorForAddresses, type Redactor } from "@/lib/server/redaction/redactor";
import { PAGE_BYTES, pageOf, scrubMeter, scrubProject } from "./scrub";

/**
 * The erasure's cleanup pass over rows its cheap test lets through (`width=400` has `=40`)
 * holds a bounded page at a time and lets other work run between rows. Runs on PGlite and,
 * with TEST_DATABASE_URL, on Postgres.
 */
const ERASED = "erase-me@example.com";
const MB = 1024 * 1024;
let dispose: () => Promise<void>;
let project: Project;

/** `count` inbound messages whose html (`size` bytes) passes the cheap test; the first also names the address. */
async function seed(prefix: string, count: number, size: number): Promise<void> {
  const filler = '<td width=400 style="padding:0">'.padEnd(64, " ");
  const html = filler.repeat(Math.ceil(size / filler.length)).slice(0, size);
  const d = await db();
  for (let i = 0; i < count; i += 50) {
    await d.insert(indexedMessages).values(
      Array.from({ length: Math.min(50, count - i) }, (_, j) => ({
        id: `${prefix}_${String(i + j).padStart(5, "0")}`,
        projectId: project.id,
        direction: "inbound" as const,
        status: "received",
        from: "news@sender.test",
        to: ["shop@acme.test"],
        subject: i + j === 0 ? `Fwd from ${ERASED}` : "Newsletter",
        html,
        source: "lookup",
        createdAt: new Date(),
      })),
    );
  }
}

const redactor = () => redactorForAddresses([{ address: ERASED, marker: addressHash(ERASED) }]);
const scrub = async (r: Redactor = redactor()) => scrubProject(await db(), project.id, ERASED, r);

beforeAll(async () => {
  setTestEnv({});
  ({ dispose } = await useTestDb());
  project = await registerProject({ externalId: "scrub" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
});
afterAll(async () => {
  await dispose();
});

describe("the erasure's scrub", () => {
  it("cuts a page at PAGE_BYTES of text, not only at 200 rows, and still reads every row once", async () => {
    await seed("big", 20, MB);
    Object.assign(scrubMeter, { pages: 0, largestPageBytes: 0, largestPageRows: 0 });
    expect(await scrub()).toBe(1);
    // 20 rows of 1 MB: pages of at most 16 rows (the old pass loaded all 20 at once).
    expect(scrubMeter.largestPageRows).toBeLessThanOrEqual(PAGE_BYTES / MB);
    expect(scrubMeter.largestPageBytes).toBeLessThanOrEqual(PAGE_BYTES);
    expect(scrubMeter.pages).toBeGreaterThanOrEqual(2);
    const [first] = await (await db()).select({ subject: indexedMessages.subject }).from(indexedMessages).where(eq(indexedMessages.id, "big_00000"));
    expect(first.subject).toBe(`Fwd from ${addressHash(ERASED)}`);
    await (await db()).delete(indexedMessages).where(and(eq(indexedMessages.projectId, project.id), like(indexedMessages.id, "big_%")));
  });

  it("gives the event loop a turn between rows", async () => {
    await seed("many", 300, 100);
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    // The real redactor, noting the turn of the event loop in which each message row is redacted (its sender: once a row).
    const real = redactor();
    const turnOfRow: number[] = [];
    const observed: Redactor = { ...real, one: (entry) => (turnOfRow.push(ticks), real.one(entry)) };
    try {
      expect(await scrub(observed)).toBe(1);
    } finally {
      running = false;
    }
    expect(turnOfRow).toHaveLength(300);
    // Each row in a turn of its own: the old pass redacted a page of 200 rows in one.
    const rowsPerTurn = new Map<number, number>();
    for (const turn of turnOfRow) rowsPerTurn.set(turn, (rowsPerTurn.get(turn) ?? 0) + 1);
    expect(Math.max(...rowsPerTurn.values())).toBe(1);
  });

  it("makes a page of one row larger than the bound, and never an empty one", () => {
    expect(pageOf([{ key: "a", bytes: PAGE_BYTES * 2 }, { key: "b", bytes: 1 }])).toEqual([{ key: "a", bytes: PAGE_BYTES * 2 }]);
    expect(pageOf([{ key: "a", bytes: 10 }, { key: "b", bytes: 10 }, { key: "c", bytes: 1 }], 20).map((c) => c.key)).toEqual(["a", "b"]);
    expect(pageOf([])).toEqual([]);
  });
});
