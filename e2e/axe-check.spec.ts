import { expect, expectNoSeriousA11yViolations, test } from "./fixtures";

/**
 * The axe check every visited screen goes through (e2e/support/axe.ts) judges the screen at
 * rest: text caught half-way through a fade is translucent, and its contrast fails though the
 * screen is fine. A full run failed so once, on sonner's "Message sent" toast closing itself
 * while axe ran.
 */

/** A toast with ample contrast (#333 on white, 12.6:1) that fades out over 1.5 s when told, then is removed. */
const TOAST_PAGE = `<!doctype html><html lang="en"><head><title>Toast</title>
<style>
  #toast { background: #fff; color: #333; padding: 8px; transition: opacity 1.5s linear; }
  #toast.leaving { opacity: 0; }
</style></head>
<body><main><h1>Sent</h1><div id="toast" role="status">Message sent<div>It is on its way.</div></div></main>
<script>
  const toast = document.getElementById("toast");
  toast.addEventListener("transitionend", () => toast.remove());
</script></body></html>`;

test("a toast that starts fading out while axe runs is checked again once it has gone, not failed half-way", async ({ page }) => {
  await page.setContent(TOAST_PAGE);
  // axe-core's own run, the moment it is injected, starts the fade first and lets it get
  // half-way (translucent text, contrast about 2:1) before checking: as a toast's timer
  // firing during the check does, but every time.
  await page.evaluate(() => {
    const w = window as unknown as { axe?: { run: (...args: unknown[]) => Promise<unknown> }; axeRuns: number; fadesStarted: number };
    w.axeRuns = 0;
    w.fadesStarted = 0;
    // axe-core sets window.axe early and fills in run later: run is wrapped when first read.
    let axe: typeof w.axe;
    let wrapped = false;
    Object.defineProperty(window, "axe", {
      configurable: true,
      set: (value: typeof w.axe) => void (axe = value),
      get() {
        if (axe && typeof axe.run === "function" && !wrapped) {
          wrapped = true;
          const run = axe.run.bind(axe);
          axe.run = async (...args: unknown[]) => {
            w.axeRuns++;
            const toast = document.getElementById("toast");
            if (toast && !toast.classList.contains("leaving")) {
              toast.classList.add("leaving");
              w.fadesStarted++;
              await new Promise((resolve) => setTimeout(resolve, 900));
            }
            return run(...args);
          };
        }
        return axe;
      },
    });
  });

  await expectNoSeriousA11yViolations(page);

  const seen = await page.evaluate(() => {
    const w = window as unknown as { axeRuns: number; fadesStarted: number };
    return { axeRuns: w.axeRuns, fadesStarted: w.fadesStarted, toastLeft: document.getElementById("toast") === null };
  });
  // The first check met the fade half-way; the second came after the toast had gone.
  expect(seen).toEqual({ axeRuns: 2, fadesStarted: 1, toastLeft: true });
});

test("a screen that does fail is still failed when nothing moves during the check", async ({ page }) => {
  // The same toast, translucent at rest: the recheck is for movement, not a second chance.
  await page.setContent(TOAST_PAGE.replace('id="toast" role="status"', 'id="toast" role="status" style="opacity: 0.4; transition: none"'));
  const failure = await expectNoSeriousA11yViolations(page).then(
    () => null,
    (error: Error) => error.message,
  );
  expect(failure).toContain("color-contrast (serious)");
});

test("the check runs the rules that report serious and critical violations, and only those can fail it", async ({ page }) => {
  // An image without alternative text, a button without a name (critical), a link without
  // discernible text (serious), and only moderate findings besides (a heading level skipped,
  // content outside any landmark).
  await page.setContent(`<!doctype html><html lang="en"><head><title>Findings</title></head><body>
    <main><h1>Findings</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <button></button><a href="#x"></a></main><h4>Skipped levels</h4><p>Outside the landmarks.</p></body></html>`);
  const failure = await expectNoSeriousA11yViolations(page).then(
    () => "",
    (error: Error) => error.message,
  );
  for (const rule of ["image-alt (critical)", "button-name (critical)", "link-name (serious)"]) expect(failure).toContain(rule);

  await page.setContent(`<!doctype html><html lang="en"><head><title>Moderate</title></head><body>
    <main><h1>Moderate only</h1></main><h4>Skipped levels</h4><p>Outside the landmarks.</p></body></html>`);
  await expectNoSeriousA11yViolations(page);
});
