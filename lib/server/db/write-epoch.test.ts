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
});
