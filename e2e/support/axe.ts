import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import type { AxeResults } from "axe-core";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * axe-core's violations on a page, with the frames matching `leftOut` (and what they hold)
 * excluded.
 *
 * AxeBuilder.analyze() runs axe in every frame (runPartial), then opens a new blank page,
 * injects axe there a second time and merges the frames' results in it (finishRun). On a page
 * whose only frames are the ones left out, there is nothing to merge: axe.run in the page
 * itself gives the same results — the same axe-core (the one AxeBuilder ships with), the same
 * rules and options, the same context — without the second page and the second injection.
 * And it injects axe-core's own minified build (570 KB), not the 1.3 MB unminified source
 * AxeBuilder evaluates: the same code, and parsing it was a third of a check. Measured on
 * e2e/access.spec.ts's 131 screens, each checked both ways in one run: 370 ms a check against
 * 773 ms through AxeBuilder, the same violations, incomplete results and passes on every
 * screen, and both found the violations added to each for the comparison. A page with any
 * other frame goes through AxeBuilder as before, so a frame that must be checked is never
 * skipped.
 */
const requireFromAxeBuilder = createRequire(createRequire(import.meta.url).resolve("@axe-core/playwright"));
const axeSource = readFileSync(requireFromAxeBuilder.resolve("axe-core/axe.min.js"), "utf8");

type AxeRule = { id: string; impact?: string; enabled?: boolean; tags?: string[] };

/**
 * The rules a check runs: those axe runs by default (enabled, neither experimental nor
 * deprecated) that can report a serious or critical violation — every rule of axe-core 4.13
 * has one impact, which its violations carry. These are the only findings the suite fails on
 * (expectNoSeriousA11yViolations in ../fixtures.ts); the others (landmarks, heading order,
 * content outside a region: moderate or minor) were worked out on every screen and never
 * read. Read from the same axe-core whose source is injected: 63 of its 89 default rules.
 * Measured on 16 screens, each checked both ways in the page: 3,056 ms against 4,168 ms, the
 * same serious and critical violations on each.
 */
const SEVERE_RULES = ((requireFromAxeBuilder("axe-core") as { _audit: { rules: AxeRule[] } })._audit.rules)
  .filter((rule) => rule.enabled !== false && !(rule.tags ?? []).some((tag) => tag === "experimental" || tag === "deprecated"))
  .filter((rule) => rule.impact === undefined || rule.impact === "serious" || rule.impact === "critical")
  .map((rule) => rule.id);

/**
 * Only violations are read here, so only they are worked out in full (resultTypes): axe still
 * runs every rule on every element, but reports one element per rule that passed, was
 * incomplete or did not apply, instead of building a unique selector and an HTML excerpt for
 * each of the thousands of elements that passed — the costly part of reporting (axe-core's
 * API docs, "Performance"). Violations come back exactly as before, each element with its
 * selector; the rest is left in the page, not sent back. Measured on access.spec, phone.spec and
 * security.spec's 137 checks, each run both ways on the same page in one run, in alternating
 * order: 28.3 s against 41.2 s in all (0.69; median 173 ms against 245 ms a check), the same
 * violations (every rule, every impact, every element's selector) on every page.
 */
const OPTIONS = { resultTypes: ["violations"], runOnly: { type: "rule", values: SEVERE_RULES } } as const;

/**
 * A check during which something began to move (a toast closing itself on its timer, a tooltip
 * fading in) may have measured it half-way, translucent: axe's contrast rule then fails text
 * that is fine at rest (marketer-dark-preview.spec's "Message sent" toast, fading out while axe
 * ran, in a full run). Such a check is run again once the movement has ended, at most twice.
 */
const RECHECKS_AFTER_MOVEMENT = 2;

export async function axeViolations(page: Page, leftOut: string): Promise<AxeResults["violations"]> {
  for (let check = 0; ; check++) {
    await animationsDone(page);
    await page.evaluate(watchMovement);
    const violations = await axeOnce(page, leftOut);
    const moved = await page.evaluate(() => (window as unknown as { __axeMovement?: { started: number } }).__axeMovement?.started ?? 0);
    if (moved === 0 || check === RECHECKS_AFTER_MOVEMENT) return violations;
  }
}

/** Counts animations and transitions that start from now on, in window.__axeMovement. */
function watchMovement(): void {
  const w = window as unknown as { __axeMovement?: { started: number } };
  if (!w.__axeMovement) {
    const movement = { started: 0 };
    w.__axeMovement = movement;
    const count = () => void movement.started++;
    for (const type of ["animationstart", "transitionrun"]) document.addEventListener(type, count, { capture: true, passive: true });
  }
  w.__axeMovement.started = 0;
}

async function axeOnce(page: Page, leftOut: string): Promise<AxeResults["violations"]> {
  // The context AxeBuilder builds from .exclude(leftOut) (normalizeContext in @axe-core/playwright).
  const context = { exclude: [leftOut], include: [] as string[] };
  const frames = page.mainFrame().childFrames().length;
  if (frames > 0 && frames !== (await page.locator(leftOut).count())) {
    return (await new AxeBuilder({ page }).exclude(leftOut).withRules(SEVERE_RULES).options({ resultTypes: [...OPTIONS.resultTypes] }).analyze()).violations;
  }
  // Injected as AxeBuilder injects it: a script evaluated in the page (the screens' CSP does not apply to it).
  if (!(await page.evaluate("typeof window.axe?.run === 'function'"))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ ctx, options }) => (await (window as unknown as { axe: { run: (c: unknown, o: object) => Promise<AxeResults> } }).axe.run(ctx, options)).violations,
    { ctx: context, options: OPTIONS },
  );
}

/**
 * Resolves once the page's finite CSS animations and transitions have ended (a dialog fading
 * in, a popover sliding open), or after 5 s: axe checks the screen as it comes to rest, not a
 * frame half-way through a fade, where text is still translucent and its contrast fails (the
 * command palette checked the moment it showed, e2e/shell.spec.ts, failed so once the check
 * got faster). Endless ones (a spinner, a skeleton's pulse) are not waited for.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(() => {
    const finite = document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity);
    if (finite.length === 0) return;
    return Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))).then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 5_000))]);
  });
}
