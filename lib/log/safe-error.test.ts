import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/server/db";
import { useTestDb } from "@/lib/server/db/test-db";
import { users } from "@/lib/server/db/schema/core";
import { route } from "@/lib/server/gate/route";
import { apiRequest, params, setTestEnv } from "@/lib/server/test-helpers";
import { safeErrorSummary } from "@/contract/log/safe-error";

/**
 * Finding 9 of the security review: error logs printed every SQL parameter (a password hash,
 * a webhook signing secret, message bodies and recipients). These errors come from the real
 * database (PGlite, or Postgres with TEST_DATABASE_URL), as the server would see them.
 */
const SECRET = "whsec_c2VjcmV0LXNpZ25pbmcta2V5LW5ldmVyLWxvZ2dlZA";
const HASH = "$2b$12$abcdefghijklmnopqrstuvCDEFGHIJKLMNOPQRSTUVWXYZ012345";
let dispose: () => Promise<void>;

beforeAll(async () => {
  setTestEnv();
  ({ dispose } = await useTestDb());
});
afterAll(() => dispose());

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error("expected the query to fail");
}

/** No piece of `secret` of 6 characters or more appears in `text`. */
function expectNoPieceOf(text: string, secret: string) {
  for (let i = 0; i + 6 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 6));
}

describe("safeErrorSummary", () => {
  it("keeps the SQLSTATE and the table of a failed insert, not its parameters or the driver's detail", async () => {
    const d = await db();
    await d.insert(users).values({ id: "u-1", email: "ada@example.com", role: "admin", passwordHash: HASH });
    const error = await failure(() => d.insert(users).values({ id: "u-2", email: "ada@example.com", role: "admin", passwordHash: HASH }));
    // The raw error does carry them: that is what used to be logged.
    expect(`${(error as Error).message} ${String((error as Error & { cause?: unknown }).cause)}`).toContain(HASH);
    const line = safeErrorSummary(error);
    expect(line).toMatch(/code=23505/);
    expect(line).toMatch(/tables=users|table=users/);
    expect(line).not.toContain("ada@example.com");
    expectNoPieceOf(line, HASH.slice(7));
  });

  it("drops messages that quote the value (invalid input syntax)", async () => {
    const d = await db();
    const error = await failure(() => d.execute(sql`select ${SECRET}::uuid`));
    const line = safeErrorSummary(error);
    expect(line).toMatch(/code=22P02/);
    expectNoPieceOf(line, SECRET);
  });

  it("keeps name, first line and stack of an ordinary error", () => {
    const line = safeErrorSummary(new TypeError("cannot read properties of undefined (reading 'id')"));
    expect(line).toMatch(/^TypeError: cannot read properties/);
    expect(line).toMatch(/\n {4}at /);
    expect(safeErrorSummary("a string")).toBe("non-error thrown: string");
  });
});

describe("route() error logging", () => {
  it("logs the correlation id and the error code of a failed query, never its parameters", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await route(null, async () => {
        await (await db()).execute(sql`select ${SECRET}::uuid, ${HASH}::text`);
        return null;
      })(await apiRequest("/api/x"), params({}));
      expect(res.status).toBe(500);
      const logged = log.mock.calls.flat().map(String).join("\n");
      expect(logged).toContain(res.headers.get("x-correlation-id")!);
      expect(logged).toContain("code=22P02");
      expectNoPieceOf(logged, SECRET);
      expectNoPieceOf(logged, HASH.slice(7));
    } finally {
      log.mockRestore();
    }
  });
});
