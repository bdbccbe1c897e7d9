import { describe, expect, it } from "vitest";
import { dropDatabase } from "./drop-database";

/**
 * The refusal it works around comes from an autovacuum worker on the database at the moment
 * of the drop, which a test cannot summon at will: the server's answers are played here.
 */
function server(answers: (string | null)[]) {
  const queries: string[] = [];
  return {
    queries,
    unsafe: async (query: string) => {
      queries.push(query);
      const code = answers.shift();
      if (code) throw Object.assign(new Error(`refused (${code})`), { code });
    },
  };
}

describe("dropDatabase", () => {
  it("drops with FORCE when that is allowed", async () => {
    const admin = server([null]);
    await dropDatabase(admin, "scratch_1");
    expect(admin.queries).toEqual(["drop database if exists scratch_1 with (force)"]);
  });

  it("drops without FORCE when FORCE may not end an autovacuum worker (42501)", async () => {
    const admin = server(["42501", null]);
    await dropDatabase(admin, "scratch_2");
    expect(admin.queries).toEqual(["drop database if exists scratch_2 with (force)", "drop database if exists scratch_2"]);
  });

  it("tries both again while a session stays, and gives the error up after five refusals", async () => {
    const admin = server(["42501", "55006", null]);
    await dropDatabase(admin, "scratch_3");
    expect(admin.queries).toHaveLength(3);

    const stuck = server(Array(10).fill("42501"));
    await expect(dropDatabase(stuck, "scratch_4")).rejects.toMatchObject({ code: "42501" });
    expect(stuck.queries.filter((q) => q.endsWith("with (force)"))).toHaveLength(5);
  });

  it("does not hide any other failure", async () => {
    const admin = server(["3D000"]);
    await expect(dropDatabase(admin, "scratch_5")).rejects.toMatchObject({ code: "3D000" });
    expect(admin.queries).toHaveLength(1);
  });
});
