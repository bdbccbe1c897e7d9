import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../test/harness";
import { appendEnvComment, mergeEnvFile } from "./env-file";

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());
function dir() {
  const d = tempDir("svc-env-");
  cleanup = d.remove;
  return d.dir;
}

describe("mergeEnvFile", () => {
  it("creates a missing file (and folder) with the values", () => {
    const path = join(dir(), "sub", ".env.local");
    expect(mergeEnvFile(path, { A: "1", B: "two" })).toMatchObject({ written: ["A", "B"], kept: [] });
    expect(readFileSync(path, "utf8")).toBe("A=1\nB=two\n");
  });

  it("keeps values already set and every other line, fills empty ones in place, appends the rest", () => {
    const path = join(dir(), ".env.local");
    const before = "# dashboard\nAUTH_SECRET=abc\nexport SERVICE_URL=http://elsewhere:1\nSERVICE_API_KEY=\n\nOTHER=x";
    writeFileSync(path, before);
    const result = mergeEnvFile(path, { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "sk_new", SERVICE_PROJECTS: "a,b" });
    expect(result).toMatchObject({ written: ["SERVICE_API_KEY", "SERVICE_PROJECTS"], kept: ["SERVICE_URL"] });
    expect(readFileSync(path, "utf8")).toBe(
      "# dashboard\nAUTH_SECRET=abc\nexport SERVICE_URL=http://elsewhere:1\nSERVICE_API_KEY=sk_new\n\nOTHER=x\nSERVICE_PROJECTS=a,b\n",
    );
  });

  it("leaves the file byte-for-byte alone when everything is set", () => {
    const path = join(dir(), ".env.local");
    writeFileSync(path, "A=1\r\nB=2");
    expect(mergeEnvFile(path, { A: "9" })).toMatchObject({ written: [], kept: ["A"] });
    expect(readFileSync(path, "utf8")).toBe("A=1\r\nB=2");
  });

  it("writes the file owner-only (0600) and narrows an existing 0644 one", () => {
    const created = join(dir(), ".env.local");
    mergeEnvFile(created, { SERVICE_API_KEY: "sk_x" });
    expect(statSync(created).mode & 0o777).toBe(0o600);
    const existing = join(dir(), "old.env");
    writeFileSync(existing, "A=1\n", { mode: 0o644 });
    expect(statSync(existing).mode & 0o777).toBe(0o644);
    mergeEnvFile(existing, { A: "2" });
    expect(statSync(existing).mode & 0o777).toBe(0o600);
  });

  it("keeps values it may not write as comments at the end", () => {
    const path = join(dir(), ".env.local");
    writeFileSync(path, "A=1", { mode: 0o644 });
    appendEnvComment(path, "new values", { A: "2" });
    expect(readFileSync(path, "utf8")).toBe("A=1\n# new values\n# A=2\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
