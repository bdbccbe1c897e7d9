import { describe, expect, it } from "vitest";
import { flagProviders, type ProviderCounts } from "./flags";
import { DEFAULT_THRESHOLDS } from "./thresholds";

const row = (provider: ProviderCounts["provider"], sent: number, bounced: number, complained = 0): ProviderCounts => ({ provider, sent, bounced, complained, delivered: sent - bounced });

describe("a provider that stands out", () => {
  it("is flagged in words when well above the others and above the warning level", () => {
    const flags = flagProviders([row("gmail", 1000, 15), row("microsoft", 600, 12), row("yahoo", 400, 30), row("apple", 100, 1), row("other", 0, 0)], DEFAULT_THRESHOLDS, 100);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ provider: "yahoo", metric: "bounce" });
    expect(flags[0]!.text).toMatch(/^Yahoo bounces 7\.5% of mail, five times the others \(1\.6%\): /);
  });

  it("is not flagged under the minimum volume, under the warning level, or when everyone bounces alike", () => {
    expect(flagProviders([row("gmail", 1000, 10), row("yahoo", 50, 10)], DEFAULT_THRESHOLDS, 100)).toEqual([]);
    expect(flagProviders([row("gmail", 1000, 2), row("yahoo", 500, 9)], DEFAULT_THRESHOLDS, 100)).toEqual([]); // 1.8 %: under 2 %
    expect(flagProviders([row("gmail", 1000, 50), row("yahoo", 500, 30)], DEFAULT_THRESHOLDS, 100)).toEqual([]); // 6 % vs 5 %
    expect(flagProviders([row("yahoo", 500, 30)], DEFAULT_THRESHOLDS, 100)).toEqual([]); // nobody to compare with
  });

  it("flags complaints per delivered message", () => {
    const flags = flagProviders([row("gmail", 5000, 0, 1), row("microsoft", 2000, 0, 8)], DEFAULT_THRESHOLDS, 100);
    expect(flags.map((f) => [f.provider, f.metric])).toEqual([["microsoft", "complaint"]]);
    expect(flags[0]!.text).toMatch(/^Microsoft users mark 0\.40% of delivered mail as spam, 20 times the others \(0\.02%\)/);
  });
});
