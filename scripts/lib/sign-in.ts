import { chromium, type Browser } from "@playwright/test";
import { TEST_CHROMIUM_ARGS, ensureTestChromium } from "./chromium";

/**
 * Signs in through the real login page in a fresh context of `browser` and returns the
 * session cookies as a Cookie header; `storageState`, when given, also saves the signed-in
 * state to that file (for pages opened later).
 */
export async function signInCookie(browser: Browser, baseURL: string, admin: { email: string; password: string }, storageState?: string): Promise<string> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    if (storageState) await context.storageState({ path: storageState });
    return (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await context.close();
  }
}

/** The same with a headless Chromium of its own, for scripts that need only the cookie. */
export async function sessionCookie(baseURL: string, admin: { email: string; password: string }): Promise<string> {
  const browser = await chromium.launch({ executablePath: await ensureTestChromium(), args: TEST_CHROMIUM_ARGS });
  try {
    return await signInCookie(browser, baseURL, admin);
  } finally {
    await browser.close();
  }
}
