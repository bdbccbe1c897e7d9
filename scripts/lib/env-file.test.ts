import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appendMissingEnv, readEnvFile, setEnvValue } from "./env-file";

const tempFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "env-file-")), ".env.local");

describe("env files", () => {
  it("reads nothing from a missing file", () => {
    expect(readEnvFile(tempFile())).toEqual({});
  });

  it("appends only what is missing and never overwrites a value", () => {
    const file = tempFile();
    writeFileSync(file, "# mine\nAUTH_SECRET=keep-me\nSERVICE_URL=http://x"); // no final newline
    const written = appendMissingEnv(file, { AUTH_SECRET: "new", PORT: "3401" }, "added by a test");
    expect(written).toEqual(["PORT"]);
    expect(readEnvFile(file)).toEqual({ AUTH_SECRET: "keep-me", SERVICE_URL: "http://x", PORT: "3401" });
    expect(readFileSync(file, "utf8")).toBe("# mine\nAUTH_SECRET=keep-me\nSERVICE_URL=http://x\n# added by a test\nPORT=3401\n");
    expect(appendMissingEnv(file, { PORT: "1" })).toEqual([]);
  });

  it("sets a value the scripts own: replaced in place, appended when absent", () => {
    const file = tempFile();
    writeFileSync(file, "A=1\nSERVICE_LOCAL_URL=http://old\nB=2\n");
    setEnvValue(file, "SERVICE_LOCAL_URL", "http://new");
    expect(readFileSync(file, "utf8")).toBe("A=1\nSERVICE_LOCAL_URL=http://new\nB=2\n");
    setEnvValue(file, "C", "3", "why");
    expect(readEnvFile(file)).toEqual({ A: "1", SERVICE_LOCAL_URL: "http://new", B: "2", C: "3" });
  });

  it("keeps the file owner-only (0600): a new one, and an existing 0644 one even when nothing is added", () => {
    const created = tempFile();
    appendMissingEnv(created, { AUTH_SECRET: "s" });
    expect(statSync(created).mode & 0o777).toBe(0o600);
    const existing = tempFile();
    writeFileSync(existing, "AUTH_SECRET=s\n", { mode: 0o644 });
    expect(appendMissingEnv(existing, { AUTH_SECRET: "t" })).toEqual([]);
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    // A value replaced in place narrows the file too.
    const replaced = tempFile();
    writeFileSync(replaced, "SERVICE_LOCAL_URL=http://old\n", { mode: 0o644 });
    setEnvValue(replaced, "SERVICE_LOCAL_URL", "http://new");
    expect(statSync(replaced).mode & 0o777).toBe(0o600);
  });
});
