import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db } from "@/lib/server/db";
import { factsSql, linksSql } from "./refresh";
import { useTestProject } from "@/lib/test/project-db";

const fixture = useTestProject();

/** Every index the plan of `statement` reads, from EXPLAIN's JSON. */
async function indexesRead(statement: ReturnType<typeof factsSql>): Promise<string[]> {
  const [row] = rowsOf<{ "QUERY PLAN": unknown }>(await (await db()).execute(sql`explain (format json) ${statement}`));
  const plan = typeof row!["QUERY PLAN"] === "string" ? JSON.parse(row!["QUERY PLAN"]) : row!["QUERY PLAN"];
  const found: string[] = [];
  const walk = (node: Record<string, unknown>) => {
    if (typeof node["Index Name"] === "string") found.push(node["Index Name"]);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
  return found;
}

const message = (id: string) => sql`
  insert into indexed_messages (id, project_id, direction, status, from_address, to_addresses, source, created_at)
  values (${id}, ${fixture.project.id}, 'outbound', 'delivered', 'shop@acme.test', '["ada@gmail.com"]'::jsonb, 'webhook', now())`;

describe("the insight refresher", () => {
  it("reads a message's opens and clicks through the message's own events, however stale the statistics", async () => {
    const d = await db();
    // Statistics taken while the project had no opens (PGlite has no autovacuum; Postgres's
    // comes later), then thousands of opens of other messages: the refresher walked all of
    // them for every message it refreshed, through the (project_id, type) index.
    await d.execute(message("msg_0"));
    await d.execute(sql`insert into indexed_events (message_id, project_id, type, occurred_at) values ('msg_0', ${fixture.project.id}, 'delivery', now())`);
    await d.execute(sql`analyze indexed_events`);
    await d.execute(sql`
      insert into indexed_events (message_id, project_id, type, occurred_at)
      select 'other_' || g, ${fixture.project.id}, case when g % 3 = 0 then 'click' else 'open' end, now() from generate_series(1, 5000) g`);

    for (const statement of [factsSql(["msg_0"]), linksSql(["msg_0"])]) {
      const indexes = await indexesRead(statement);
      expect(indexes).toContain("indexed_events_message_idx");
      expect(indexes).not.toContain("indexed_events_project_type_idx");
    }
  });
});
