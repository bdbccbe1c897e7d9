import { expect, test } from "./fixtures";
import { project } from "./helpers/marketer";
import { authFile, run } from "./support/run";

/**
 * Finding 8 of the security review, replayed over real HTTP against the built dashboard: a
 * NUL byte or a malformed percent-escape in a path, an id, the project or a search gave 500s,
 * a bad escape even signed out. API answers are 400s naming the field; pages are a 400 or
 * 404 page; nothing is a 500.
 */
const API_PROBES: [string, string | null][] = [
  [`/api/p/%00/messages`, "project"],
  [`/api/p/${project}/messages/%00`, "id"],
  [`/api/p/${project}/messages?q=%00`, "q"],
  [`/api/p/${project}/contacts/abc%00def`, "id"],
  [`/api/p/${project}/recipients/%00`, "email"],
  [`/api/p/%zz/messages`, "path"],
  [`/api/p/${project}/messages/%E0%A4%A`, "path"],
];
const PAGE_PROBES = [
  `/p/%00`,
  `/p/%zz`,
  `/p/${project}/messages/%00`,
  `/p/${project}/messages/%zz`,
  `/p/${project}/messages?q=%00`,
  `/p/${project}/contacts/%00`,
  `/p/${project}/recipients/%00`,
  `/p/${project}/recipients/%E0%A4%A`,
  `/p/${project}/templates/%00`,
  `/%zz`,
];

async function get(path: string, cookie?: string) {
  const res = await fetch(`${run.baseURL}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
  return { status: res.status, text: await res.text() };
}

async function cookieOf(file: string): Promise<string> {
  const { readFileSync } = await import("node:fs");
  const state = JSON.parse(readFileSync(file, "utf8")) as { cookies: { name: string; value: string }[] };
  return state.cookies.map((c) => `${c.name}=${c.value}`).join("; ");
}

test("API routes answer NUL and malformed escapes with a 400 naming the field (signed out: 400 or 401)", async () => {
  const admin = await cookieOf(authFile("admin"));
  for (const [path, param] of API_PROBES) {
    const signedIn = await get(path, admin);
    expect.soft(signedIn.status, `${path} signed in: ${signedIn.text.slice(0, 200)}`).toBe(400);
    if (param && signedIn.status === 400) expect.soft(JSON.parse(signedIn.text).error.param, path).toBe(param);
    // Signed out, the path is checked before the session (400) and the query after it (401).
    const signedOut = await get(path);
    expect.soft([400, 401], `${path} signed out: ${signedOut.status} ${signedOut.text.slice(0, 200)}`).toContain(signedOut.status);
  }
});

test("pages answer them with a 400 or 404 page (or open and say what was dropped), never a 500 or an error screen", async () => {
  const admin = await cookieOf(authFile("admin"));
  for (const path of PAGE_PROBES) {
    for (const cookie of [admin, undefined]) {
      const { status, text } = await get(path, cookie);
      const who = cookie ? "signed in" : "signed out";
      // Signed out, a well-formed address is sent to the sign-in page; anything else is refused.
      // A screen that streams (loading.tsx) has sent 200 before its not-found page renders.
      expect.soft([200, 400, 404, ...(cookie ? [] : [307])], `${path} ${who}: ${status}`).toContain(status);
      expect.soft(text, `${path} ${who}`).not.toContain("This screen could not be shown");
      if (path.includes("%00") && !path.includes("?") && status === 200) expect.soft(text, `${path} ${who}`).toContain("This page does not exist");
    }
  }
});
