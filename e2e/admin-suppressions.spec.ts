import { randomBytes } from "node:crypto";
import { sendMessage } from "../scripts/lib/service-api";
import { api, expect, screenshot, settle, test, visit } from "./fixtures";
import { authFile, run, serviceKey } from "./support/run";
import { budget } from "./support/budget";

/** A suppression added by support appears in the table and export, and a send to it is rejected. */
const [project] = run.projects;

test.use({ storageState: authFile("support") });

test("a suppression added by support is listed, exported, and a send to it is rejected", async ({ page }) => {
  const email = `blocked-${randomBytes(3).toString("hex")}@example.com`;
  expect(await visit(page, `/p/${project}/suppressions`)).toBe(200);
  await page.getByRole("button", { name: "Add suppression" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Suppress an address" });
  await dialog.getByLabel("Email address").fill("not-an-address");
  await dialog.getByRole("button", { name: "Suppress address" }).click();
  await expect(dialog.getByText("must be an email address")).toBeVisible();
  await dialog.getByLabel("Email address").fill(email);
  await dialog.getByRole("button", { name: "Suppress address" }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole("region", { name: "Suppressions" }).getByRole("row").filter({ hasText: email });
  await expect(row).toContainText("manual");
  await screenshot(page, "admin-suppressions");

  // The seed's bounce suppression links to the message behind it. Specs run before this one on
  // the same service (bulk suppressions) may have pushed it past the first page: walk the pages
  // as a user would, each one loaded before it is read, at most 20.
  const bounceLink = page.getByRole("link", { name: "The bounce message" }).first();
  for (let pages = 1; pages < 20 && !(await bounceLink.isVisible()); pages++) {
    const before = page.url();
    await page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Next page" }).click();
    await page.waitForURL((url) => url.toString() !== before);
    await settle(page);
  }
  await expect(bounceLink).toHaveAttribute("href", new RegExp(`/p/${project}/messages/`));

  const csv = await api(page, "GET", `/api/p/${project}/suppressions/export`);
  expect(csv.status).toBe(200);
  expect(csv.headers["content-type"]).toContain("text/csv");
  expect(csv.text).toContain(`${email},manual,`);

  // The service refuses to deliver to it: the message ends rejected.
  const access = { serviceURL: run.serviceURL, key: serviceKey(), project };
  const id = await sendMessage(access, { to: email, subject: "To a suppressed address" });
  await expect
    .poll(async () => {
      const res = await fetch(`${run.serviceURL}/v1/emails/${id}`, { headers: { Authorization: `Bearer ${access.key}`, "X-Service-Product": project } });
      return ((await res.json()) as { status: string }).status;
    }, { timeout: budget(15_000) })
    .toBe("rejected");

  // The reason is in the audit log (read as an admin).
  const audit = await page.context().browser()!.newContext({ storageState: authFile("admin") });
  const adminPage = await audit.newPage();
  const entries = await api(adminPage, "GET", `/api/admin/audit?action=suppression.create&q=${encodeURIComponent(email)}`);
  expect(entries.text).toContain('"reason":"manual"');
  await audit.close();
});

test("a form dialog cannot be closed while it saves, and closes once the save is done", async ({ page }) => {
  const email = `held-${randomBytes(3).toString("hex")}@example.com`;
  // The dashboard's POST is held at the browser until the test lets it go, so the save is
  // in flight for as long as the test needs; then it goes on to the real route unchanged.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const inFlight = new Promise<void>((resolve) => (held = resolve));
  await page.route(`**/api/p/${project}/suppressions`, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    held();
    await released;
    await route.continue();
  });

  expect(await visit(page, `/p/${project}/suppressions`)).toBe(200);
  await page.getByRole("button", { name: "Add suppression" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Suppress an address" });
  await dialog.getByLabel("Email address").fill(email);
  await dialog.getByRole("button", { name: "Suppress address" }).click();
  await inFlight;

  await expect(dialog.getByRole("button", { name: "Suppress address" })).toHaveAttribute("aria-busy", "true");
  await expect(dialog.getByRole("button", { name: "Close" })).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
  // Escape is refused, and the dialog says why.
  await page.keyboard.press("Escape");
  await expect(dialog.getByRole("status")).toHaveText("Still saving — this closes when it is done.");
  await page.mouse.click(5, 5);
  await expect(dialog).toHaveAttribute("data-state", "open");
  await screenshot(page, "form-dialog-saving");

  release();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Suppressions" }).getByRole("row").filter({ hasText: email })).toBeVisible();
});

test("a first page the service refuses shows why at once, and asks again only on Try again (issue 27)", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === `/api/p/${project}/suppressions`) asked.push(r.url());
  });
  // A cursor the service never gave: its refusal (400, naming the cursor) is the page's first load.
  expect(await visit(page, `/p/${project}/suppressions?cursor=not-a-cursor`)).toBe(200);
  const failure = page.locator('[data-slot="error-state"]');
  await expect(failure).toContainText("The suppressions could not be loaded");
  await expect(failure).toContainText(/cursor/i);
  // The page handed its error over: the browser did not ask the same question again to learn it.
  expect(asked).toEqual([]);
  await failure.getByRole("button", { name: "Try again" }).click();
  await expect.poll(() => asked.length).toBe(1);
  await expect(failure).toContainText(/cursor/i);
});
