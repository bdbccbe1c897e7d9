import { describe, expect, it } from "vitest";
import { DEFAULT_TIME_SCALE, timeScale } from "./time-scale";

describe("the browser tests' time scale", () => {
  it("is twice the written budgets unless E2E_TIME_SCALE says otherwise", () => {
    expect(DEFAULT_TIME_SCALE).toBe(2);
    expect(timeScale({})).toBe(2);
    expect(timeScale({ E2E_TIME_SCALE: "" })).toBe(2);
    expect(timeScale({ E2E_TIME_SCALE: "1" })).toBe(1);
    expect(timeScale({ E2E_TIME_SCALE: "3.5" })).toBe(3.5);
  });

  it("refuses a scale out of range or not a number, naming the variable", () => {
    expect(() => timeScale({ E2E_TIME_SCALE: "0.5" })).toThrow(/E2E_TIME_SCALE must be a number from 1 to 5, not "0.5"/);
    expect(() => timeScale({ E2E_TIME_SCALE: "6" })).toThrow(/E2E_TIME_SCALE/);
    expect(() => timeScale({ E2E_TIME_SCALE: "fast" })).toThrow(/E2E_TIME_SCALE/);
  });
});
