import { afterAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { openDatabase } from "@/lib/server/db";
import { dropDatabase } from "@/contract/db/drop-database";
import { SERVER_URL } from "./harness";

/**
 * Instances started together each migrate the one database at start. Here several open it at
 * once on an empty database, in one process so they really are simultaneous: without the
 * migrations' advisory lock most of them fail ("relation already exists", duplicate keys in
 * the catalog). Postgres only, like the rest of tests/cluster (the message is printed there).
 */
describe.skipIf(!SERVER_URL)("migrations from several instances at once", () => {
  const name = `dash_migrate_${randomBytes(6).toString("hex")}`;
  let admin: import("postgres").Sql;

  afterAll(async () => {
    if (admin) await dropDatabase(admin, name);
    await admin?.end({ timeout: 5 });
  });

  it("all succeed on an empty database, and each migration is applied once", async () => {
    const { default: postgres } = await import("postgres");
    admin = postgres(SERVER_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const url = new URL(SERVER_URL!);
    url.pathname = `/${name}`;
    const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ url: url.toString() })));
    const failures = opened.filter((o) => o.status === "rejected").map((o) => String((o as PromiseRejectedResult).reason));
    for (const o of opened) if (o.status === "fulfilled") await o.value.close();
    expect(failures).toEqual([]);
    const check = postgres(url.toString(), { max: 1, onnotice: () => {} });
    try {
      const [{ n, distinct }] = await check`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`;
      expect(n).toBe(distinct);
    } finally {
      await check.end({ timeout: 5 });
    }
  });
});
