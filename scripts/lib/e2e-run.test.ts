import { describe, expect, it } from "vitest";
import { targetsFor } from "./e2e-run";

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
