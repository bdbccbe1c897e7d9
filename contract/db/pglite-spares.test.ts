import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { spareOrNew } from "./pglite-spares";

/** A small database like a migrated one: a table the migrations filled, one a trigger writes, sequences. */
const SCHEMA = `
  create table settings (name text primary key, value text not null);
  insert into settings values ('theme', 'dark');
  create table notes (id serial primary key, body text not null);
  create table log (id serial primary key, what text not null);
  create function noted() returns trigger language plpgsql as $$ begin insert into log (what) values (new.body); return new; end $$;
  create trigger noted after insert on notes for each row execute function noted();
  create sequence tickets start 100;`;

const opened: PGlite[] = [];
afterAll(async () => {
  for (const pg of opened) if (!pg.closed) await pg.close();
});

/**
 * spareOrNew for a kind of this file alone, counting the databases it opens: one database
 * goes from test to test while it may be reused (a new PGlite costs a second or two of CPU).
 */
let opens = 0;
const take = () =>
  spareOrNew("pglite-spares.test", async () => {
    opens++;
    const pg = new PGlite();
    opened.push(pg);
    await pg.exec(SCHEMA);
    return { pg, view: (client: PGlite) => client };
  });

const count = async (pg: PGlite, table: string) => (await pg.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0].n;

describe("spare test databases", () => {
  it("come back to the next file as they were opened: rows, sequences and session settings", async () => {
    const first = await take();
    const before = opens;
    await first.value.exec(`insert into notes (body) values ('a'), ('b'); update settings set value = 'light'; select nextval('tickets'); set statement_timeout = 1234`);
    await first.release();

    const second = await take();
    expect(opens).toBe(before);
    expect(await count(second.value, "notes")).toBe(0);
    expect(await count(second.value, "log")).toBe(0);
    expect((await second.value.query(`select value from settings`)).rows).toEqual([{ value: "dark" }]);
    // The migrations' row came back without firing anything, and the serial and the sequence start again.
    expect((await second.value.query(`insert into notes (body) values ('c') returning id`)).rows).toEqual([{ id: 1 }]);
    expect((await second.value.query<{ n: string }>(`select nextval('tickets')::text as n`)).rows).toEqual([{ n: "100" }]);
    expect((await second.value.query(`show statement_timeout`)).rows).toEqual([{ statement_timeout: "0" }]);
    await second.release();
  });

  it("end a transaction the last file left open", async () => {
    const first = await take();
    const before = opens;
    await first.value.exec(`begin; insert into notes (body) values ('never committed')`);
    await first.release();
    const second = await take();
    expect(opens).toBe(before);
    expect(await count(second.value, "notes")).toBe(0);
    await second.release();
  });

  it("refuse the last file's view once it is given back: nothing it left running writes into the next file's rows", async () => {
    const first = await take();
    await first.release();
    const second = await take();
    expect(() => first.value.query(`insert into notes (body) values ('late')`)).toThrow(/given back/);
    expect(await count(second.value, "notes")).toBe(0);
    await second.release();
  });

  it("are not reused when the schema changed", async () => {
    const first = await take();
    const before = opens;
    await first.value.exec(`alter table notes add column extra text`);
    await first.release();
    const second = await take();
    expect(opens).toBe(before + 1);
    expect((await second.value.query(`select column_name from information_schema.columns where table_name = 'notes' order by 1`)).rows).toEqual([{ column_name: "body" }, { column_name: "id" }]);
    await second.release();

    // A changed default is a changed schema too.
    const third = await take();
    await third.value.exec(`alter table notes alter column body set default 'x'`);
    await third.release();
    await (await take()).release();
    expect(opens).toBe(before + 2);
  });

  it("are not reused when a method was wrapped and not put back; are when it was put back", async () => {
    const first = await take();
    const before = opens;
    const original = first.value.query;
    first.value.query = (async (...args: Parameters<PGlite["query"]>) => original(...args)) as PGlite["query"];
    first.value.query = original;
    await first.release();
    const second = await take();
    expect(opens).toBe(before);
    second.value.query = (async (...args: Parameters<PGlite["query"]>) => original(...args)) as PGlite["query"];
    await second.release();
    await (await take()).release();
    expect(opens).toBe(before + 1);
  });
});
