import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

const valid = {
  SERVICE_URL: "http://127.0.0.1:4010",
  SERVICE_API_KEY: "sk_live_x",
  AUTH_SECRET: "x".repeat(32),
};

function problems(source: Record<string, string | undefined>): string[] {
  try {
    parseEnv(source);
  } catch (e) {
    expect(e).toBeInstanceOf(EnvError);
    return (e as EnvError).problems;
  }
  throw new Error("expected an EnvError");
}

describe("parseEnv", () => {
  it("applies defaults", () => {
    const e = parseEnv(valid);
    expect(e.DASHBOARD_DATA_DIR).toBe(".data/dashboard");
    expect(e.PUBLIC_URL).toBe("http://localhost:3000");
    expect(e.publicOrigin).toBe("http://localhost:3000");
    expect(e.SERVICE_TIMEOUT_MS).toBe(10_000);
    expect(e.LOGIN_THROTTLE_MAX).toBe(5);
    expect(e.LOGIN_THROTTLE_WINDOW_S).toBe(900);
    expect(e.SERVICE_PROJECTS).toEqual([]);
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.oidc).toBeNull();
  });

  it("names every missing required variable at once", () => {
    const p = problems({});
    expect(p.some((x) => x.startsWith("SERVICE_URL "))).toBe(true);
    expect(p.some((x) => x.startsWith("SERVICE_API_KEY "))).toBe(true);
    expect(p.some((x) => x.startsWith("AUTH_SECRET "))).toBe(true);
    expect(new EnvError(p).message).toContain("SERVICE_URL");
  });

  it("names malformed values", () => {
    const p = problems({
      ...valid,
      SERVICE_URL: "not a url",
      AUTH_SECRET: "short",
      SERVICE_TIMEOUT_MS: "soon",
      DATABASE_URL: "mysql://x",
      PUBLIC_URL: "ftp://x",
      ADMIN_EMAIL: "nobody",
    });
    for (const name of ["SERVICE_URL", "AUTH_SECRET", "SERVICE_TIMEOUT_MS", "DATABASE_URL", "PUBLIC_URL", "ADMIN_EMAIL"]) {
      expect(p.some((x) => x.startsWith(`${name} `)), name).toBe(true);
    }
    expect(p.find((x) => x.startsWith("AUTH_SECRET"))).toContain("at least 32 characters");
  });

  it("treats empty strings as unset", () => {
    const e = parseEnv({ ...valid, DATABASE_URL: "", PUBLIC_URL: "", SERVICE_TIMEOUT_MS: "" });
    expect(e.DATABASE_URL).toBeUndefined();
    expect(e.PUBLIC_URL).toBe("http://localhost:3000");
    expect(e.SERVICE_TIMEOUT_MS).toBe(10_000);
  });

  it("splits SERVICE_PROJECTS and drops blanks and repeats", () => {
    expect(parseEnv({ ...valid, SERVICE_PROJECTS: " demo, shop ,,demo" }).SERVICE_PROJECTS).toEqual(["demo", "shop"]);
  });

  it("requires the OIDC variables all together", () => {
    const p = problems({ ...valid, OIDC_ISSUER: "https://id.example.com" });
    expect(p).toContain("OIDC_CLIENT_ID is required when any OIDC_* variable is set");
    expect(p).toContain("OIDC_CLIENT_SECRET is required when any OIDC_* variable is set");
    const e = parseEnv({ ...valid, OIDC_ISSUER: "https://id.example.com", OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" });
    expect(e.oidc).toEqual({ issuer: "https://id.example.com", clientId: "a", clientSecret: "b" });
  });

  it("reads METRICS_TOKEN and LOG_FORMAT: unset by default, a short token or an unknown format named", () => {
    expect(parseEnv(valid).METRICS_TOKEN).toBeUndefined();
    expect(parseEnv(valid).LOG_FORMAT).toBe("text");
    expect(parseEnv({ ...valid, METRICS_TOKEN: "t".repeat(24), LOG_FORMAT: "json" })).toMatchObject({ METRICS_TOKEN: "t".repeat(24), LOG_FORMAT: "json" });
    expect(problems({ ...valid, METRICS_TOKEN: "short", LOG_FORMAT: "xml" })).toEqual([
      "METRICS_TOKEN must be at least 24 characters (e.g. 32 random bytes as base64url)",
      "LOG_FORMAT must be text or json",
    ]);
  });

  it("accepts postgres URLs", () => {
    expect(parseEnv({ ...valid, DATABASE_URL: "postgres://u:p@db:5432/dash" }).DATABASE_URL).toBe("postgres://u:p@db:5432/dash");
  });

  it("reads the batch settings: defaults, the sweep derived from the lease, and bad values named", () => {
    const d = parseEnv(valid);
    expect([d.BATCH_WORKERS, d.BATCH_LEASE_MS, d.BATCH_SWEEP_MS, d.BATCH_CHUNK_PAUSE_MS, d.BATCH_CHUNK_HOLD_MS]).toEqual([8, 15_000, 5_000, 0, 0]);
    expect(parseEnv({ ...valid, BATCH_LEASE_MS: "3000" }).BATCH_SWEEP_MS).toBe(1_000);
    expect(parseEnv({ ...valid, BATCH_LEASE_MS: "600" }).BATCH_SWEEP_MS).toBe(500);
    expect(parseEnv({ ...valid, BATCH_LEASE_MS: "3000", BATCH_SWEEP_MS: "250" }).BATCH_SWEEP_MS).toBe(250);
    expect(parseEnv({ ...valid, BATCH_WORKERS: "1", BATCH_CHUNK_HOLD_MS: "1000" })).toMatchObject({ BATCH_WORKERS: 1, BATCH_CHUNK_HOLD_MS: 1000 });
    const p = problems({ ...valid, BATCH_WORKERS: "many", BATCH_SWEEP_MS: "0", BATCH_CHUNK_PAUSE_MS: "-1" });
    expect(p.some((x) => x.startsWith("BATCH_WORKERS "))).toBe(true);
    expect(p.some((x) => x.startsWith("BATCH_SWEEP_MS "))).toBe(true);
    expect(p.some((x) => x.startsWith("BATCH_CHUNK_PAUSE_MS "))).toBe(true);
  });

  it("refuses more pre-send check workers than the cap, naming the variable and why", () => {
    expect(parseEnv({ ...valid, PRESEND_WORKERS: "4" }).PRESEND_WORKERS).toBe(4);
    expect(parseEnv(valid).PRESEND_WORKERS).toBe(0);
    const p = problems({ ...valid, PRESEND_WORKERS: "64" });
    expect(p.find((x) => x.startsWith("PRESEND_WORKERS "))).toMatch(/at most 4: each check's worker may hold a 256 MB heap/);
  });
});
