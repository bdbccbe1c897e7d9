import { describe, expect, it } from "vitest";
import { BIN, nextServerArgs } from "./paths";

describe("how the dashboard's server is started", () => {
  it("gives Node its heap limits before the script (after it, a flag would go to next as an argument)", () => {
    const args = nextServerArgs(3100);
    for (const flag of ["--max-old-space-size=384", "--max-semi-space-size=4"]) {
      expect(args.indexOf(flag)).toBeGreaterThanOrEqual(0);
      expect(args.indexOf(flag)).toBeLessThan(args.indexOf(BIN.next));
    }
    expect(args.slice(args.indexOf(BIN.next))).toEqual([BIN.next, "start", "-p", "3100", "-H", "127.0.0.1"]);
  });

  it("leaves `next dev`, which compiles as it serves, with Node's own limits", () => {
    expect(nextServerArgs("3000", "0.0.0.0", "dev")).toEqual([BIN.next, "dev", "-p", "3000", "-H", "0.0.0.0"]);
  });
});
