import { describe, expect, it } from "vitest";
import { DEFAULT_THRESHOLDS, formatRate, formatThreshold, levelOf, levelsOf, nextLevel, timesWords } from "./thresholds";

const bounce = levelsOf("bounce", DEFAULT_THRESHOLDS);
const complaint = levelsOf("complaint", DEFAULT_THRESHOLDS);

describe("levels against the thresholds", () => {
  it("defaults to 2 % / 4 % bounces and 0.08 % / 0.1 % complaints", () => {
    expect(bounce).toEqual({ warning: 0.02, limit: 0.04 });
    expect(complaint).toEqual({ warning: 0.0008, limit: 0.001 });
  });

  it("places a rate at its level; a threshold reached is crossed", () => {
    expect(levelOf(null, bounce)).toBe("ok");
    expect(levelOf(0.0199, bounce)).toBe("ok");
    expect(levelOf(0.02, bounce)).toBe("warning");
    expect(levelOf(0.04, bounce)).toBe("limit");
    expect(levelOf(0.0009, complaint)).toBe("warning");
  });

  it("goes up at once but down only a tenth under the threshold", () => {
    expect(nextLevel("ok", 0.05, bounce)).toBe("limit");
    expect(nextLevel("limit", 0.039, bounce)).toBe("limit"); // hovering under the limit
    expect(nextLevel("limit", 0.035, bounce)).toBe("warning");
    expect(nextLevel("limit", 0.0181, bounce)).toBe("warning");
    expect(nextLevel("limit", 0.01, bounce)).toBe("ok");
    expect(nextLevel("warning", 0.019, bounce)).toBe("warning");
    expect(nextLevel("warning", 0.0179, bounce)).toBe("ok");
  });

  it("writes rates and thresholds the way people read them", () => {
    expect(formatRate(0.2)).toBe("20.0%");
    expect(formatRate(0.0035)).toBe("0.35%");
    expect(formatRate(null)).toBe("—");
    expect(formatThreshold(0.04)).toBe("4%");
    expect(formatThreshold(0.0008)).toBe("0.08%");
    expect(timesWords(4.2)).toBe("four times");
    expect(timesWords(2)).toBe("twice");
    expect(timesWords(23)).toBe("23 times");
  });
});
