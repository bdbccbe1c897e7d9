import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createDueGate } from "./due-gate";
import { watchWrites } from "./write-epoch";

let pg: PGlite;
beforeAll(async () => {
  pg = new PGlite();
  watchWrites(pg);
  await pg.exec("create table work (id int primary key, due_at timestamptz not null)");
});
afterAll(() => pg.close());
afterEach(() => vi.useRealTimers());

/** The probe a poller of `work` would ask: how long until its earliest due time, counted. */
function countedProbe() {
  const probe = Object.assign(
    async () => {
      probe.calls++;
      const { rows } = await pg.query<{ in_ms: number | null }>("select (extract(epoch from min(due_at) - now()) * 1000)::float8 as in_ms from work");
      return rows[0]!.in_ms;
    },
    { calls: 0 },
  );
  return probe;
}

describe("a due gate on a database this process alone writes", () => {
  it("asks nothing while no write comes and nothing falls due, and asks again after any write", async () => {
    await pg.exec("delete from work");
    const probe = countedProbe();
    const gate = createDueGate(() => true, probe);
    expect(await gate.due()).toBe(false);
    for (let i = 0; i < 5; i++) expect(await gate.due()).toBe(false);
    expect(probe.calls).toBe(1);
    // A read by anyone changes nothing.
    await pg.query("select count(*) from work");
    expect(await gate.due()).toBe(false);
    expect(probe.calls).toBe(1);
    // A write by anyone (here not the poller) may have queued work: the next call asks.
    await pg.query("insert into work values (1, now())");
    expect(await gate.due()).toBe(true);
    expect(probe.calls).toBe(2);
  });

  it("asks again once the time it was told has passed, not before", async () => {
    await pg.exec("delete from work");
    await pg.query("insert into work values (2, now() + interval '60 seconds')");
    const start = Date.now();
    // Only this process's clock moves: the database still answers from its own.
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const probe = countedProbe();
    const gate = createDueGate(() => true, probe);
    expect(await gate.due()).toBe(false);
    vi.setSystemTime(start + 55_000);
    expect(await gate.due()).toBe(false);
    expect(probe.calls).toBe(1);
    vi.setSystemTime(start + 61_000);
    await gate.due();
    expect(probe.calls).toBe(2);
  });

  it("answers due when the probe says the time has come", async () => {
    await pg.exec("delete from work");
    await pg.query("insert into work values (4, now() - interval '1 second')");
    const gate = createDueGate(() => true, countedProbe());
    expect(await gate.due()).toBe(true);
  });

  it("does not keep an answer a write made stale while it was read", async () => {
    await pg.exec("delete from work");
    const probe = countedProbe();
    let race = true;
    const racing = async () => {
      const at = await probe();
      // The first time, a write lands after the probe read, before the gate keeps its answer.
      if (race) await pg.query("insert into work values (3, now())");
      race = false;
      return at;
    };
    const gate = createDueGate(() => true, racing);
    expect(await gate.due()).toBe(false);
    expect(await gate.due()).toBe(true);
  });

  it("asks again after wake()", async () => {
    await pg.exec("delete from work");
    const probe = countedProbe();
    const gate = createDueGate(() => true, probe);
    await gate.due();
    gate.wake();
    await gate.due();
    expect(probe.calls).toBe(2);
  });
});

it("on a database other processes write (Postgres), the gate asks at every call", async () => {
  await pg.exec("delete from work");
  const probe = countedProbe();
  const gate = createDueGate(() => false, probe);
  for (let i = 0; i < 3; i++) expect(await gate.due()).toBe(false);
  expect(probe.calls).toBe(3);
});

it("an answer kept on a watched database is not trusted once the database is no longer watched", async () => {
  await pg.exec("delete from work");
  let watched = true;
  const probe = countedProbe();
  const gate = createDueGate(() => watched, probe);
  expect(await gate.due()).toBe(false);
  watched = false; // the process moved to a database others write (tests switch databases)
  await gate.due();
  expect(probe.calls).toBe(2);
});
