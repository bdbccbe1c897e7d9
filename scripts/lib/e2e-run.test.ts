import { describe, expect, it } from "vitest";
import { targetLanesCountdown, targetsFor } from "./e2e-run";

describe("targetsFor (which services a browser-test run talks to)", () => {
  it("runs the whole suite, or the journeys, against both services", () => {
    expect(targetsFor([], undefined)).toEqual(["bundled", "contrarian"]);
    expect(targetsFor(["e2e/journeys"], undefined)).toEqual(["bundled", "contrarian"]);
    expect(targetsFor(["--grep", "x", "e2e/journeys/domains.spec.ts"], undefined)).toEqual(["bundled", "contrarian"]);
  });

  it("runs other specs against the bundled service only, and E2E_TARGET picks one", () => {
    expect(targetsFor(["e2e/shell.spec.ts"], undefined)).toEqual(["bundled"]);
    expect(targetsFor(["e2e/journeys"], "contrarian")).toEqual(["contrarian"]);
    expect(targetsFor([], "bundled")).toEqual(["bundled"]);
    expect(() => targetsFor([], "elsewhere")).toThrow(/E2E_TARGET/);
  });
});

describe("targetLanesCountdown (when the Postgres pass may take the contrarian's place)", () => {
  const lane = (name: string, target: "bundled" | "contrarian") => ({ name, target, files: [], estimate: 0 });
  const plan = [lane("contrarian-1", "contrarian"), lane("contrarian-2", "contrarian"), lane("bundled-1", "bundled"), lane("bundled-3", "bundled")];

  it("tells once, after the last of the target's lanes, whatever the others do", () => {
    let told = 0;
    const countdown = targetLanesCountdown(plan, "contrarian", () => (told += 1));
    countdown.ended(plan[0]);
    countdown.ended(plan[2]);
    expect(told).toBe(0);
    countdown.ended(plan[1]);
    expect(told).toBe(1);
    // A lane that follows the contrarian's in its chain (bundled-3) ends later: no second call.
    countdown.ended(plan[3]);
    expect(told).toBe(1);
  });

  it("tells at once when the round has none of the target's lanes", () => {
    let told = 0;
    targetLanesCountdown(plan.slice(2), "contrarian", () => (told += 1));
    expect(told).toBe(1);
  });
});
