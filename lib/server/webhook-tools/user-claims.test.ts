import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { SYSTEM_ACTOR } from "@/lib/server/audit";
import { db, openDatabase, type Db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { setTestEnv } from "@/lib/server/test-helpers";
import { createUser } from "@/lib/server/users";
import { createUserRequest } from "@/lib/schemas/users";
import { claimUserWork, releaseUserWork, type UserLimit } from "./user-claims";

/**
 * The per-user limits of "Test an endpoint" hold across instances: two handles on one Postgres
 * stand for two dashboards (on PGlite, one process is the deployment: the same handle twice).
 */
const url = process.env.TEST_DATABASE_URL;
let dispose: () => Promise<void>;
let a: Db;
let b: Db;
let closeB = async () => {};
let n = 0;
const limit = (extra: Partial<UserLimit> = {}): UserLimit => ({ kind: `test-${++n}`, perWindow: 10, windowMs: 60_000, leaseMs: 30_000, ...extra });
const newUser = async () => (await createUser(createUserRequest.parse({ email: `claims${++n}@example.com`, role: "admin", allProjects: true }), SYSTEM_ACTOR)).user.id;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
  a = await db();
  b = a;
  if (url) {
    const [{ name }] = rowsOf<{ name: string }>(await a.execute(sql`select current_database() as name`));
    const second = new URL(url);
    second.pathname = `/${name}`;
    const other = await openDatabase({ url: second.toString() });
    b = other.db;
    closeB = other.close;
  }
});
afterAll(async () => {
  await closeB();
  await dispose();
});

describe(`per-user limits shared by instances (${url ? "Postgres, two connections" : "PGlite"})`, () => {
  it("lets one run at a time, whichever instance asks, even when they ask together", async () => {
    const [user, l] = [await newUser(), limit()];
    const tries = await Promise.all(Array.from({ length: 20 }, (_, i) => claimUserWork(l, user, i % 2 ? b : a)));
    expect(tries.filter((t) => t === null)).toHaveLength(1);
    expect(tries.filter((t) => t !== null).every((t) => t!.running)).toBe(true);
    await releaseUserWork(l, user, b);
    expect(await claimUserWork(l, user, a)).toBeNull();
    // Another user is not held by it.
    expect(await claimUserWork(l, await newUser(), b)).toBeNull();
  });

  it("counts the runs of every instance in one window, and says when the next one may start", async () => {
    const [user, l] = [await newUser(), limit()];
    for (let i = 0; i < 10; i++) {
      const on = i % 2 ? b : a;
      expect(await claimUserWork(l, user, on)).toBeNull();
      await releaseUserWork(l, user, on);
    }
    const over = await claimUserWork(l, user, b);
    expect(over).toMatchObject({ running: false });
    expect(over!.retryAfterS).toBeGreaterThanOrEqual(58);
    expect(over!.retryAfterS).toBeLessThanOrEqual(60);
  });

  it("frees a run whose instance died once its lease is over", async () => {
    const [user, l] = [await newUser(), limit()];
    expect(await claimUserWork(l, user, a)).toBeNull();
    expect(await claimUserWork(l, user, b)).toMatchObject({ running: true });
    // The instance died without letting go, and its lease ran out (moved, not waited for: a
    // lease short enough to wait for could run out between the two claims above on a busy machine).
    await b.execute(sql`update user_work_claims set running_until = now() - interval '1 millisecond' where kind = ${l.kind} and user_id = ${user}`);
    expect(await claimUserWork(l, user, b)).toBeNull();
  });
});
