import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "@/contract/db-rows";
import type { Actor, Project } from "@/lib/server/gate/access";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, openDatabase } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { indexedMessages } from "@/lib/server/db/schema/messages";
import type { DeliveredEvent } from "@/lib/server/message-index/payload";
import { recordEventsIn } from "@/lib/server/message-index/record-event";
import { indexServiceMessage } from "@/lib/server/message-index/lookup";
import { registerProject } from "@/lib/server/projects";
import { setTestEnv } from "@/lib/server/test-helpers";
import { tablesNaming } from "@/lib/test/naming";
import type { Message } from "@/lib/schemas/emails";
import { addressHash } from "@/lib/server/redaction/address-hash";
import { factsSql, holdRefresherLock } from "@/lib/server/insight/refresh";
import { eraseRecipient } from "./erase";

/**
 * Two dashboards on one Postgres: a second instance (its own connections, as another process
 * has) writes while the first erases. Its write either ends before the erasure starts, and the
 * erasure then finds what it wrote, or comes after, and reads the erasure: never between
 * (lib/server/redaction/redactor.ts). Postgres only (TEST_DATABASE_URL): PGlite is one
 * process's database.
 */
const ERASED = "race-me@example.com";
const url = process.env.TEST_DATABASE_URL;

let dispose: () => Promise<void>;
let other: Awaited<ReturnType<typeof openDatabase>>;
let project: Project;
const actor = { id: "u-1", email: "support@staff.test", name: null, role: "support", active: true, allProjects: true, projectIds: [], sessionId: "s", authAt: null } as Actor;

const event = (messageId: string, erased = ERASED): DeliveredEvent => ({
  messageId,
  type: "bounce",
  occurredAt: new Date(),
  direction: "outbound",
  from: "shop@acme.test",
  to: [`Race Me <${erased}>`, "carol@example.com"],
  subject: `For ${erased}`,
  html: null,
  text: null,
  details: { recipient: erased },
});

describe.skipIf(!url)("an erasure while another instance writes (Postgres)", () => {
  beforeAll(async () => {
    setTestEnv({});
    ({ dispose } = await useTestDb());
    project = await registerProject({ externalId: "acme", name: "Acme" }, SYSTEM_ACTOR, { checkWithService: false, connectEventStream: false });
    const [{ name }] = rowsOf<{ name: string }>(await (await db()).execute(sql`select current_database() as name`));
    const second = new URL(url!);
    second.pathname = `/${name}`;
    other = await openDatabase({ url: second.toString() });
  });
  afterAll(async () => {
    await other?.close();
    await dispose?.();
  });

  it("waits for a write under way on the other instance, then finds it; the other's later writes read the erasure", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let written!: () => void;
    const wrote = new Promise<void>((r) => (written = r));
    // The other instance is between recording a delivery that names the address and committing.
    const writing = other.db.transaction(async (tx) => {
      await recordEventsIn(tx, [{ projectId: project.id, key: "race-1", event: event("em-race") }], 60_000);
      written();
      await gate;
    });
    await wrote;
    let done = false;
    const erasing = eraseRecipient(project, actor, ERASED, { confirmEmail: ERASED }).finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(done).toBe(false);
    release();
    await writing;
    await erasing;
    expect(await tablesNaming(await db(), [ERASED])).toEqual({});
    const [row] = await (await db()).select().from(indexedMessages).where(eq(indexedMessages.id, "em-race"));
    expect(row).toMatchObject({ to: ["carol@example.com"], subject: `For ${addressHash(ERASED)}` });

    // Afterwards the other instance's deliveries and reads leave the address out.
    await other.db.transaction((tx) => recordEventsIn(tx, [{ projectId: project.id, key: "race-2", event: event("em-after") }], 60_000));
    const read = { id: "em-read", from: "shop@acme.test", to: [ERASED], subject: ERASED, status: "sent", direction: "outbound", createdAt: new Date().toISOString(), events: [] } as unknown as Message;
    await other.db.transaction((tx) => indexServiceMessage(project.id, read, {}, tx).then(() => undefined));
    expect(await tablesNaming(await db(), [ERASED])).toEqual({});
  });

  it("strips messages only after a refresh batch under way on the other instance ends, so the facts it computed cannot bring the address back", async () => {
    const address = "refresh-race@example.com";
    await other.db.transaction((tx) => recordEventsIn(tx, [{ projectId: project.id, key: "race-3", event: event("em-refresh", address) }], 60_000));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let computed!: () => void;
    const wrote = new Promise<void>((r) => (computed = r));
    // The other instance's refresher has read the message (the address its first recipient) and
    // written its facts, and has not committed yet.
    const refreshing = other.db.transaction(async (tx) => {
      await holdRefresherLock(tx);
      await tx.execute(factsSql(["em-refresh"]));
      computed();
      await gate;
    });
    await wrote;
    const erasing = eraseRecipient(project, actor, address, { confirmEmail: address });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await refreshing;
    await erasing;
    expect(await tablesNaming(await db(), [address])).toEqual({});
  });
});
