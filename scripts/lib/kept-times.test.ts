import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keptTimes } from "./kept-times";

const made: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kept-times-"));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("keptTimes", () => {
  it("reads the committed table and this checkout's last run apart, and saves the last run where it reads it", () => {
    const committed = tmp();
    const lastRun = path.join(tmp(), "test-results");
    writeFileSync(path.join(committed, "times.json"), JSON.stringify({ a: 1, b: 2 }));
    const times = keptTimes<Record<string, number>>("times.json", { committed, lastRun });
    expect(times.read()).toEqual({ a: 1, b: 2 });
    expect(times.lastRun()).toEqual({});

    // The folder of the last run is made when missing (a fresh clone has no test-results/).
    times.saveLastRun({ b: 5, c: 3 });
    expect(JSON.parse(readFileSync(path.join(lastRun, "times.json"), "utf8"))).toEqual({ b: 5, c: 3 });
    expect(times.lastRun()).toEqual({ b: 5, c: 3 });
    // Where both have a figure, the last run's (this machine's) wins.
    expect(times.read()).toEqual({ a: 1, b: 5, c: 3 });
  });

  it("reads a part of a table of tables, the last run's over the committed", () => {
    const committed = tmp();
    const lastRun = tmp();
    writeFileSync(path.join(committed, "times.json"), JSON.stringify({ pglite: { x: 1, y: 2 }, postgres: { x: 9 } }));
    writeFileSync(path.join(lastRun, "times.json"), JSON.stringify({ pglite: { y: 4 } }));
    const times = keptTimes<Record<string, Record<string, number>>>("times.json", { committed, lastRun });
    expect(times.read((t) => t.pglite)).toEqual({ x: 1, y: 4 });
    expect(times.read((t) => t.postgres)).toEqual({ x: 9 });
    expect(times.read((t) => t.other)).toEqual({});
  });

  it("takes a missing or unreadable table as an empty one", () => {
    const committed = tmp();
    writeFileSync(path.join(committed, "times.json"), "{ not json");
    const times = keptTimes<Record<string, number>>("times.json", { committed, lastRun: tmp() });
    expect(times.read()).toEqual({});
    expect(times.lastRun()).toEqual({});
  });
});
