import { and, desc, eq, sql } from "drizzle-orm";
import { addSuppressionRequest, pageQuery, suppression } from "../../contract/wire";
import type { App } from "../context";
import { suppressions } from "../db/schema";
import { requireProject } from "../lib/auth";
import { decodeCursor, toPage } from "../lib/pagination";
import { createdInProject, pagedList, routesTagged } from "./shared";

type SuppressionRow = typeof suppressions.$inferSelect;
export const toSuppression = (row: SuppressionRow) => ({
  email: row.email,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  messageId: row.messageId,
});

const route = routesTagged("Suppressions");

const list = route({ method: "get", path: "/v1/suppressions", ...pagedList(pageQuery, suppression, "A page of suppressions, newest first") });

const add = route({
  method: "post", path: "/v1/suppressions",
  ...createdInProject(addSuppressionRequest, suppression, "The suppression (an existing one is returned unchanged)"),
});

export function register(app: App) {
  app.openapi(list, async (c) => {
    const project = await requireProject(c, "suppressions:read");
    const { limit, cursor } = c.req.valid("query");
    // Suppressions have no id: the cursor is (created_at in microseconds, email) of the last row,
    // the sort key itself. Microseconds, not a JS Date: a millisecond cursor would skip rows
    // created within the same millisecond.
    const after = decodeCursor(cursor, (v) => /^\d{1,20}\|.+@.+$/.test(v));
    const [afterMicros, afterEmail] = after ? [after.slice(0, after.indexOf("|")), after.slice(after.indexOf("|") + 1)] : [];
    const micros = sql<string>`(extract(epoch from ${suppressions.createdAt}) * 1000000)::bigint::text`;
    const db = c.get("deps").db;
    const rows = await db.select({ row: suppressions, micros }).from(suppressions)
      .where(and(eq(suppressions.projectId, project.id),
        after ? sql`((extract(epoch from ${suppressions.createdAt}) * 1000000)::bigint, ${suppressions.email}) < (${afterMicros}::bigint, ${afterEmail})` : undefined))
      .orderBy(desc(suppressions.createdAt), desc(suppressions.email))
      .limit(limit + 1);
    const { data: page, nextCursor } = toPage(rows, limit, (r) => `${r.micros}|${r.row.email}`);
    const data = page.map((r) => r.row);
    return c.json({ data: data.map(toSuppression), nextCursor }, 200);
  });

  app.openapi(add, async (c) => {
    const project = await requireProject(c, "suppressions:write");
    const body = c.req.valid("json");
    const email = body.email.toLowerCase();
    const db = c.get("deps").db;
    await db.insert(suppressions).values({ projectId: project.id, email, reason: body.reason ?? "manual" }).onConflictDoNothing();
    const [row] = await db.select().from(suppressions).where(and(eq(suppressions.projectId, project.id), eq(suppressions.email, email)));
    return c.json(toSuppression(row), 201);
  });
}
