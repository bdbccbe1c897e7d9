import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanMessages } from "./write-epoch";

/** Frontend messages as PGlite's query paths send them: type, length, payload. */
function message(type: string, ...parts: (string | number[])[]): Uint8Array {
  const payload = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(`${p}\u0000`) : Buffer.from(p))));
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeUInt32BE(payload.length + 4, 1);
  return Buffer.concat([head, payload]);
}
const query = (sql: string) => message("Q", sql);
const parse = (sql: string) => message("P", "", sql, [0, 0]);
const sync = () => message("S");

describe("scanMessages", () => {
  it("a plain read writes nothing", () => {
    expect(scanMessages(parse('select "id", "updated_at" from "users" where "id" = $1'))).toEqual({ writes: false, ends: false });
    expect(scanMessages(query("SHOW server_version"))).toEqual({ writes: false, ends: true });
  });

  it("any statement that may change data is a write, in either protocol", () => {
    for (const sql of [
      'update "sessions" set "revoked_at" = $1',
      'insert into "user_projects" values ($1, $2)',
      "delete from projects where id = $1",
      "truncate users",
      "select * from sessions for update",
      "with gone as (delete from sessions returning id) select count(*) from gone",
      "BEGIN",
      "COMMIT",
      "ROLLBACK",
      "  /* unknown */ select 1",
      "select 1; update sessions set revoked_at = now()",
      "show search_path; drop table users",
      "select * into sessions_copy from sessions",
      "select setval('seq', 1)",
      "select set_config('search_path', 'other', false)",
    ]) {
      expect(scanMessages(parse(sql)).writes, sql).toBe(true);
      expect(scanMessages(query(sql)).writes, sql).toBe(true);
    }
  });

  it("finds the statement and the Sync among several messages in one exchange", () => {
    const batch = Buffer.concat([parse("select 1"), message("B", "", "", [0, 0, 0, 0, 0, 0]), message("E", "", [0, 0, 0, 0]), sync()]);
    expect(scanMessages(batch)).toEqual({ writes: false, ends: true });
    expect(scanMessages(Buffer.concat([parse("update users set name = $1"), sync()]))).toEqual({ writes: true, ends: true });
  });

  it("a statement parsed earlier and bound by name, or a function called by id, is a write; the exchange ends only at its last Sync", () => {
    const bind = (statement: string) => message("B", "", statement, [0, 0, 0, 0, 0, 0]);
    expect(scanMessages(Buffer.concat([bind("s1"), message("E", "", [0, 0, 0, 0]), sync()])).writes).toBe(true);
    expect(scanMessages(Buffer.concat([bind(""), message("E", "", [0, 0, 0, 0]), sync()])).writes).toBe(false);
    expect(scanMessages(message("F", [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])).writes).toBe(true);
    expect(scanMessages(Buffer.concat([sync(), parse("update users set name = $1"), bind("")]))).toEqual({ writes: true, ends: false });
    expect(scanMessages(parse("select 1;  "))).toEqual({ writes: false, ends: false });
  });
});

describe("both programs' migrations", () => {
  // A SELECT of a function that writes would be taken for a read (scanMessages): keep it so that none exists.
  const functionsIn = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .flatMap((f) => [...readFileSync(path.join(dir, f), "utf8").matchAll(/create\s+(?:or\s+replace\s+)?(?:function|procedure)[^;]*?(returns\s+\w+|language)/gi)].map((m) => `${f}: ${m[0].slice(0, 80)}`));

  it("the dashboard's define no function but triggers", () => {
    const functions = functionsIn(path.resolve(__dirname, "../../drizzle"));
    expect(functions.length).toBeGreaterThan(0);
    expect(functions.filter((f) => !/returns\s+trigger/i.test(f))).toEqual([]);
  });

  it("the service's define no function at all", () => {
    const dir = path.resolve(__dirname, "../../service/db/migrations");
    expect(readdirSync(dir).filter((f) => f.endsWith(".sql")).length).toBeGreaterThan(0);
    expect(functionsIn(dir)).toEqual([]);
  });
});
