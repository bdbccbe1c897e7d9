import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./paths";

/**
 * One browser-test run (or benchmark) at a time per checkout. Runs share the .next-e2e
 * build, the saved sessions in e2e/.auth and test-results/; a second run started meanwhile
 * would rebuild under the first or replace its sessions with ones its server does not know.
 * The second run waits instead. The lock lives in the temp folder, named after the checkout,
 * and a lock left by a process that is gone is taken over.
 *
 * The holder's children inherit it (RUN_LOCK_HOLDER names the holding process): `npm test`
 * takes the lock once and runs the browser lanes and the Postgres pass, whose cluster test
 * also asks for it, side by side under it.
 */
const LOCK = path.join(os.tmpdir(), `mail-dashboard-e2e-${createHash("sha256").update(ROOT).digest("hex").slice(0, 12)}.lock`);

interface Holder {
  pid: number;
  at: string;
  what: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holder(): Holder | null {
  try {
    return JSON.parse(readFileSync(LOCK, "utf8")) as Holder;
  } catch {
    return null;
  }
}

const INHERITED = "MAIL_DASHBOARD_RUN_LOCK_HOLDER";

export async function withRunLock<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const inherited = process.env[INHERITED];
  if (inherited && holder()?.pid === Number(inherited) && alive(Number(inherited))) return fn();
  let announced = false;
  for (;;) {
    try {
      writeFileSync(LOCK, JSON.stringify({ pid: process.pid, at: new Date().toISOString(), what }), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const other = holder();
      if (other && !alive(other.pid)) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (!announced && other) {
        console.log(`Waiting for the ${other.what} started at ${other.at} (pid ${other.pid}) in this checkout to finish...`);
        announced = true;
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
  const release = () => {
    if (holder()?.pid === process.pid) rmSync(LOCK, { force: true });
  };
  process.on("exit", release);
  const before = process.env[INHERITED];
  process.env[INHERITED] = String(process.pid);
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env[INHERITED];
    else process.env[INHERITED] = before;
    release();
    process.off("exit", release);
  }
}
