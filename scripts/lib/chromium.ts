import { accessSync, constants } from "node:fs";
import { runToEnd } from "./child";

const DEFAULT_PATH = "/usr/bin/chromium";
const INSTALL = "apt-get install -y chromium";

/** Flags for a headless Chromium in a container without GPU, sandbox or network chatter. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The browser tests' Chromium: V8 stops at its baseline compiler (Sparkplug). Each test page
 * lives a few seconds, and V8's optimising tiers spent more CPU compiling axe-core and the
 * dashboard's code in background threads than they won back before the next navigation
 * discarded it. Measured on the support persona's pass over 31 screens: renderer CPU 30.4 s and
 * 29.4 s against 39.2 s and 39.6 s without (axe.run 170-190 ms against 430 ms a screen).
 * Capping lower tiers only (--max-opt=2, no TurboFan) cost more: 95.7 s of Chromium CPU against
 * 88.6. Benchmarks keep a browser as users have it (CHROMIUM_ARGS).
 */
export const TEST_CHROMIUM_ARGS = [...CHROMIUM_ARGS, "--js-flags=--max-opt=1"];

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || DEFAULT_PATH;
}

/**
 * The system Chromium that Playwright drives (no browser downloads are possible here).
 * When missing: installed with apt as root, otherwise we stop with the one command to run.
 */
export async function ensureChromium(): Promise<string> {
  const file = chromiumPath();
  if (executable(file)) return file;
  if (process.env.CHROMIUM_PATH) {
    throw new Error(`CHROMIUM_PATH is set to ${file}, which is not an executable file.`);
  }
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    throw new Error(
      `Chromium was not found at ${DEFAULT_PATH}. Install it with:\n\n  sudo ${INSTALL}\n\n` +
        "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
    );
  }
  console.log(`Chromium was not found at ${DEFAULT_PATH}; installing it with apt...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // A fresh machine has no package lists yet; an install without them finds nothing.
  if ((await runToEnd("apt-get", ["update"], env)) !== 0 || (await runToEnd("apt-get", INSTALL.split(" ").slice(1), env)) !== 0) {
    throw new Error(`Installing Chromium failed. Run it yourself:\n\n  ${INSTALL}`);
  }
  if (!executable(file)) throw new Error(`apt installed chromium, but ${file} is still missing.`);
  return file;
}
