import { expect, expectNoSeriousA11yViolations, screenshot, test, visit } from "./fixtures";
import { screenRoutes } from "./support/routes";
import { sendMessage } from "../scripts/lib/service-api";
import { authFile, run, serviceKey } from "./support/run";

/** The shell every screen stands on: the project switcher and the command palette. */
test.use({ storageState: authFile("admin") });
const [projectA, projectB] = run.projects;

const endsWith = (path: string) => new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

/** A screen inside a project other than the overview when one exists, to see it kept. */
function projectScreen(project: string): string {
  const inner = screenRoutes()
    .map((s) => s.pattern)
    .filter((p) => p.startsWith("/p/[project]/") && !p.slice("/p/[project]/".length).includes("["));
  return `/p/${project}${inner.length ? inner[0].slice("/p/[project]".length) : ""}`;
}

test("switching project keeps the screen", async ({ page }) => {
  expect(projectB, "the demo seed registers two projects").toBeTruthy();
  const from = projectScreen(projectA);
  expect(await visit(page, from)).toBe(200);
  await page.getByRole("combobox", { name: /switch project/i }).click();
  await expectNoSeriousA11yViolations(page, { soft: true });
  await page.getByRole("option", { name: new RegExp(projectB) }).click();
  await expect(page).toHaveURL(endsWith(projectScreen(projectB)));
  await expect(page.getByRole("combobox", { name: /switch project/i })).toBeVisible();
  await expectNoSeriousA11yViolations(page, { soft: true });
});

test("Ctrl+K opens the command palette and jumps to a screen", async ({ page }) => {
  expect(await visit(page, `/p/${projectA}`)).toBe(200);
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog");
  await expect(palette).toBeVisible();
  await expect(palette.getByRole("combobox")).toBeFocused();
  await expectNoSeriousA11yViolations(page, { soft: true });
  await screenshot(page, "command-palette");

  await page.keyboard.type("Audit log");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(palette).toBeHidden();

  // Escape closes it without going anywhere.
  await page.keyboard.press("Control+k");
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page).toHaveURL(/\/admin\/audit$/);
});

test("a pasted message id in the palette opens that message", async ({ page }) => {
  const id = await sendMessage({ serviceURL: run.serviceURL, key: serviceKey(), project: projectA });
  expect(await visit(page, `/p/${projectA}`)).toBe(200);
  await page.keyboard.press("Control+k");
  await page.keyboard.type(id);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(endsWith(`/p/${projectA}/messages/${id}`));
});

test("a link prefetches its screen when it is pointed at or focused, not when it comes into view", async ({ page }) => {
  const prefetched: string[] = [];
  page.on("request", (r) => {
    if (r.headers()["next-router-prefetch"]) prefetched.push(new URL(r.url()).pathname);
  });
  await visit(page, `/p/${projectA}`);
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link")).not.toHaveCount(0);
  expect(prefetched, "prefetches for the links in view").toEqual([]);
  await main.getByRole("link", { name: "Messages" }).hover();
  await expect.poll(() => prefetched, { message: "the link pointed at" }).toContain(`/p/${projectA}/messages`);
  await main.getByRole("link", { name: "Domains" }).focus();
  await expect.poll(() => prefetched, { message: "the link focused" }).toContain(`/p/${projectA}/domains`);
  expect([...new Set(prefetched)].sort(), "nothing but the two").toEqual([`/p/${projectA}/domains`, `/p/${projectA}/messages`]);
});
