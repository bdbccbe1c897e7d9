import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/contract/db-rows";
import { db } from "./index";
import { useTestDb } from "./test-db";
import { textArray } from "./arrays";

let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

describe("text arrays as one parameter", () => {
  it("arrive in the database value for value, quotes, backslashes, commas and braces included", async () => {
    const values = ["msg_1", 'quote"d', "back\\slash", "comma,brace}{", "space d", "", "NULL", "ünïcode"];
    const rows = rowsOf<{ v: string }>(await (await db()).execute(sql`select unnest(${textArray(values)}::text[]) as v`));
    expect(rows.map((r) => r.v)).toEqual(values);
  });
});
