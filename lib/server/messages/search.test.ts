import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { db } from "@/lib/server/db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import type { MessageListQuery } from "@/lib/schemas/messages-index";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { useTestDb } from "@/lib/server/db/test-db";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { FILTERS, indexMirroredMessages } from "@/lib/test/mirrored-messages";
import { searchMessages } from "./search";
import { allPageIds } from "@/lib/test/page-ids";
import { messageListQuery } from "@/lib/schemas/messages-index";

/**
 * The project filter of the messages search. Two projects hold mirror-image messages (the
 * same addresses, subjects, tags, statuses, directions and times; only the ids differ), so
 * every filter matches in both: a search of one must never answer the other's. Written by
 * the real writers: recordSentMessages for sends, indexServiceMessage for inbound mail.
 */
let dispose: () => Promise<void>;
const ids: Record<"alpha" | "beta", string> = { alpha: "", beta: "" };

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  for (const p of ["alpha", "beta"] as const) ids[p] = (await registerProject({ externalId: p }, SYSTEM_ACTOR, { checkWithService: false })).id;
  await indexMirroredMessages(ids);
});
afterAll(() => dispose());

/** All pages of a search, walked with the cursor one message at a time. */
const allPages = (projectId: string, query: MessageListQuery) => allPageIds((cursor) => searchMessages(projectId, { ...query, limit: 1, cursor }));

describe("searchMessages keeps to its project", () => {
  it.each(FILTERS.map((f) => [JSON.stringify(f), f] as const))("%s: only the project's own messages, the same ones in each", async (_, filter) => {
    const alpha = (await searchMessages(ids.alpha, messageListQuery.parse(filter))).data.map((m) => m.id);
    const beta = (await searchMessages(ids.beta, messageListQuery.parse(filter))).data.map((m) => m.id);
    expect(alpha.length).toBeGreaterThan(0);
    expect(alpha.every((id) => id.startsWith("alpha-")), alpha.join()).toBe(true);
    expect(beta.every((id) => id.startsWith("beta-")), beta.join()).toBe(true);
    expect(beta.map((id) => id.replace("beta-", "alpha-"))).toEqual(alpha);
    // Page by page, the cursor never crosses into the other project either.
    expect(await allPages(ids.alpha, filter)).toEqual(alpha);
  });

  it("a pasted id of the other project finds nothing; its own finds that message alone", async () => {
    expect((await searchMessages(ids.alpha, messageListQuery.parse({ q: "beta-out-0001" }))).data).toEqual([]);
    expect((await searchMessages(ids.alpha, messageListQuery.parse({ q: "beta-in-0004" }))).data).toEqual([]);
    expect((await searchMessages(ids.alpha, messageListQuery.parse({ q: "alpha-out-0001" }))).data.map((m) => m.id)).toEqual(["alpha-out-0001"]);
  });
});

describe("searchMessages pages", () => {
  it("skip no message at a page's edge when times differ below the millisecond", async () => {
    const micro = (await registerProject({ externalId: "micro" }, SYSTEM_ACTOR, { checkWithService: false })).id;
    await (await db()).insert(indexedMessages).values(
      Array.from({ length: 6 }, (_, i) => ({
        id: `micro-${i}`, projectId: micro, direction: "outbound" as const, status: "sent", from: "shop@acme.test", source: "dashboard",
        createdAt: sql`'2026-03-01T00:00:00.000Z'::timestamptz + make_interval(secs => ${i} / 1000000.0)` as unknown as Date,
      })),
    );
    expect(await allPageIds((cursor) => searchMessages(micro, { limit: 2, cursor }))).toEqual(["micro-5", "micro-4", "micro-3", "micro-2", "micro-1", "micro-0"]);
  });
});
