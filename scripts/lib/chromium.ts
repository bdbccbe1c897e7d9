import { accessSync, constants } from "node:fs";
import { runToEnd } from "./child";

/** A Chromium as users have it: the benchmarks' browser. */
const BROWSER = { path: "/usr/bin/chromium", apt: "chromium" } as const;
/**
 * The tests' Chromium: Debian's build of Chromium's headless shell, the same engine (Blink,
 * V8, the same version from the same source package) without the browser around it. The full
 * browser in headless mode still runs its own window compositor and UI for every frame a page
 * draws: a page load cost Chromium 707 ms of CPU against 419 ms in the shell (browser process
 * 191 against 49, its GPU process 111 against 38, renderers 388 against 324; ten screens loaded
 * four times each in both, interleaved), and a lane of four spec files (access, support-messages,
 * shell, marketer-templates) took 339 s and 406 CPU-s against 382 s and 520 CPU-s.
 */
const HEADLESS_SHELL = { path: "/usr/bin/chromium-headless-shell", apt: "chromium-headless-shell" } as const;

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

/** The Chromium Playwright drives: CHROMIUM_PATH, which the harness sets to `ensureTestChromium()`'s. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || HEADLESS_SHELL.path;
}

/**
 * The system Chromium as users have it, for the benchmarks (no browser downloads are possible
 * here). When missing: installed with apt as root, otherwise we stop with the one command to run.
 */
export async function ensureChromium(): Promise<string> {
  return ensureInstalled(BROWSER);
}

/**
 * The tests' Chromium (HEADLESS_SHELL above), or CHROMIUM_PATH when set. When the shell is
 * missing: installed with apt as root; otherwise the full browser, when there is one, with a
 * word on what the shell would save; otherwise we stop with the command to run.
 */
export async function ensureTestChromium(): Promise<string> {
  if (process.env.CHROMIUM_PATH || executable(HEADLESS_SHELL.path) || isRoot()) return ensureInstalled(HEADLESS_SHELL);
  if (executable(BROWSER.path)) {
    console.log(`Browser tests run in ${BROWSER.path}; with ${HEADLESS_SHELL.path} (sudo apt-get install ${HEADLESS_SHELL.apt}) they take a third less of Chromium's time.`);
    return BROWSER.path;
  }
  return ensureInstalled(HEADLESS_SHELL);
}

const isRoot = () => process.getuid?.() === 0;

async function ensureInstalled(chromium: { path: string; apt: string }): Promise<string> {
  const file = process.env.CHROMIUM_PATH || chromium.path;
  if (executable(file)) return file;
  if (process.env.CHROMIUM_PATH) {
    throw new Error(`CHROMIUM_PATH is set to ${file}, which is not an executable file.`);
  }
  const install = `apt-get install -y ${chromium.apt}`;
  if (!isRoot()) {
    throw new Error(`Chromium was not found at ${file}. Install it with:\n\n  sudo ${install}\n\nor point CHROMIUM_PATH at a Chromium or Chrome binary.`);
  }
  console.log(`Chromium was not found at ${file}; installing ${chromium.apt} with apt...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  // A fresh machine has no package lists yet; an install without them finds nothing.
  if ((await runToEnd("apt-get", ["update"], env)) !== 0 || (await runToEnd("apt-get", install.split(" ").slice(1), env)) !== 0) {
    throw new Error(`Installing Chromium failed. Run it yourself:\n\n  ${install}`);
  }
  if (!executable(file)) throw new Error(`apt installed ${chromium.apt}, but ${file} is still missing.`);
  return file;
}
