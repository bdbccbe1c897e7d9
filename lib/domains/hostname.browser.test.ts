import { build } from "esbuild";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_CHROMIUM_ARGS, ensureTestChromium } from "@/scripts/lib/chromium";
import { normalizeHostname } from "./hostname";

/**
 * The add-domain form validates as you type, so the module runs in the browser too. URL
 * parsers differ (Chromium lets malformed punycode through where Node refuses it), so the
 * same inputs are checked in real Chromium and must give the same answers as in Node.
 */
const INPUTS = ["Bücher.Example.", "xn--mnchen-3ya.de", "例え。テスト", "https://x.com", "a_b.com", "xn--zz.com", "1.2.3.4", "-a.com", "a%41.com"];

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: await ensureTestChromium(), args: TEST_CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
});

describe("normalizeHostname in Chromium", () => {
  it("bundles for the browser and agrees with Node", async () => {
    const bundle = await build({
      entryPoints: [new URL("./hostname.ts", import.meta.url).pathname],
      bundle: true,
      write: false,
      format: "iife",
      globalName: "hostnameModule",
      platform: "browser",
      logLevel: "silent",
    });
    const page = await browser.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0].text });
    const inBrowser = await page.evaluate(
      (inputs) => inputs.map((h) => (globalThis as never as { hostnameModule: typeof import("./hostname") }).hostnameModule.normalizeHostname(h)),
      INPUTS,
    );
    expect(inBrowser).toEqual(INPUTS.map((h) => normalizeHostname(h)));
    expect(inBrowser[5]).toEqual({ ok: false, message: "This internationalised domain name is not valid: check the spelling" });
  });
});
