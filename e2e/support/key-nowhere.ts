import type { APIRequestContext, Page, Response } from "@playwright/test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serviceKey } from "./run";

/**
 * The account-wide service key must appear nowhere in what the browser receives: no page, no
 * data answer, no script, no header. e2e/access.spec.ts looks while its personas open every
 * screen and call every API route (it opened each of them anyway; a second crawl of the same
 * screens in security.spec.ts cost about 105 s of a lane), and its last test puts the
 * personas' findings together and adds the scripts' source maps.
 *
 * Each persona's findings go to a file, not to module state: Playwright starts a new worker
 * after a failed test, and the last test must still see what the earlier ones found.
 */
export interface KeyFindings {
  /** How many answers were read. */
  crawled: number;
  /** Where the key (or its tail) was found: `METHOD url`. */
  leaks: string[];
  /** HTML answers that came without a Content-Security-Policy. */
  htmlWithoutCsp: string[];
  /** Next's scripts the pages loaded, for their source maps. */
  scripts: string[];
}

/** The key, and its tail alone in case a prefix is shown on purpose somewhere. */
function needles(): string[] {
  const key = serviceKey();
  return [key, key.slice(-16)];
}

const carries = (text: string, keys: string[]) => keys.some((n) => text.includes(n));

/**
 * Bodies the server marked `immutable` (Next's content-hashed build files), by URL, once read:
 * the same bytes arrive again on every screen that loads them, for every persona, and reading
 * each again through the browser was most of what the watch cost (support's pass: 2.8 s of
 * the test process's CPU). Their headers are still read every time.
 */
const immutableRead = new Set<string>();

export class KeyWatch {
  private readonly keys = needles();
  private readonly pending: Promise<void>[] = [];
  readonly findings: KeyFindings = { crawled: 0, leaks: [], htmlWithoutCsp: [], scripts: [] };

  /** Reads every answer the page receives from now on: headers and body. */
  watch(page: Page, who: string): void {
    page.on("response", (response: Response) => this.pending.push(this.read(response, who)));
  }

  private async read(response: Response, who: string): Promise<void> {
    const headers = await response.allHeaders();
    const url = response.url();
    const immutable = /\bimmutable\b/.test(headers["cache-control"] ?? "") && response.status() === 200;
    // Redirects and aborted requests have no body; an unused router prefetch may never end.
    const body =
      immutable && immutableRead.has(url)
        ? ""
        : await Promise.race([
            response.body().then((b) => {
              if (immutable) immutableRead.add(url);
              return b.toString("utf8");
            }, () => ""),
            new Promise<string>((resolve) => setTimeout(() => resolve(""), 5_000)),
          ]);
    this.note(`${response.request().method()} ${url}`, JSON.stringify(headers) + body);
    if ((headers["content-type"] ?? "").includes("text/html") && !headers["content-security-policy"]) this.findings.htmlWithoutCsp.push(`${who}: ${url}`);
    if (url.includes("/_next/static/") && url.endsWith(".js")) this.findings.scripts.push(url);
  }

  /** An answer read some other way (an API call through the page's request context). */
  note(where: string, text: string): void {
    this.findings.crawled += 1;
    if (carries(text, this.keys)) this.findings.leaks.push(where);
  }

  /** Waits for the answers still being read and writes the findings for `who`. */
  async save(dir: string, who: string): Promise<void> {
    await Promise.all(this.pending);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${who}.json`), JSON.stringify(this.findings));
  }
}

/** What `save` wrote for `who`, or null if that persona's pass did not get so far. */
export function savedFindings(dir: string, who: string): KeyFindings | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, `${who}.json`), "utf8")) as KeyFindings;
  } catch {
    return null;
  }
}

/** Where the key appears in the source maps the server has for `scripts` (a script without one is skipped). */
export async function leaksInSourceMaps(request: APIRequestContext, scripts: string[]): Promise<{ maps: number; leaks: string[] }> {
  const keys = needles();
  const leaks: string[] = [];
  let maps = 0;
  for (const script of new Set(scripts)) {
    const map = await request.get(`${script}.map`);
    if (!map.ok()) continue;
    maps += 1;
    if (carries(await map.text(), keys)) leaks.push(`GET ${script}.map`);
  }
  return { maps, leaks };
}
