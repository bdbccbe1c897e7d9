import { describe, expect, it } from "vitest";
import { BIN, DASHBOARD_NODE_FLAGS, nextServerArgs } from "./paths";

describe("how the dashboard's server is started", () => {
  it("gives Node its heap limit before the script (after it, the flag would go to next as an argument)", () => {
    const args = nextServerArgs(3100);
    expect(args.indexOf("--max-old-space-size=1024")).toBeGreaterThanOrEqual(0);
    expect(args.indexOf("--max-old-space-size=1024")).toBeLessThan(args.indexOf(BIN.next));
    expect(args.slice(args.indexOf(BIN.next))).toEqual([BIN.next, "start", "-p", "3100", "-H", "127.0.0.1"]);
    expect(nextServerArgs("3000", "0.0.0.0", "dev").slice(DASHBOARD_NODE_FLAGS.length)).toEqual([BIN.next, "dev", "-p", "3000", "-H", "0.0.0.0"]);
  });
});
