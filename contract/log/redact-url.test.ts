import { describe, expect, it } from "vitest";
import { redactUrl, redactUrlsIn } from "./redact-url";

describe("redactUrl", () => {
  it("masks userinfo, query values and the fragment, keeping scheme, host, port and path", () => {
    expect(redactUrl("http://user:pw@host.example:8443/hook?token=abc&x=1#frag")).toBe("http://***@host.example:8443/hook?token=***&x=***#***");
    expect(redactUrl("https://user@host.example/hook")).toBe("https://***@host.example/hook");
    expect(redactUrl("https://:pw@host.example/")).toBe("https://***@host.example/");
    expect(redactUrl("https://host.example/alerts/mail-hooks")).toBe("https://host.example/alerts/mail-hooks");
    expect(redactUrl("https://host.example/?sig")).toBe("https://host.example/?sig=***");
    expect(redactUrl("https://host.example/?")).toBe("https://host.example/");
  });

  it("masks path segments that look like tokens (Slack, Discord), not words", () => {
    expect(redactUrl("https://hooks.slack.com/services/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")).toBe("https://hooks.slack.com/services/T0123ABCD/B0123ABCD/***");
    expect(redactUrl("https://discord.com/api/webhooks/123456789012345678/" + "x".repeat(68))).toBe("https://discord.com/api/webhooks/123456789012345678/***");
    expect(redactUrl("https://example.com/receivers/production-alerts")).toBe("https://example.com/receivers/production-alerts");
    expect(redactUrl("http://127.0.0.1:9/e2e-hook-1764391234567")).toBe("http://127.0.0.1:9/e2e-hook-1764391234567");
    expect(redactUrl("https://x.example/hooks/3f2b6c1e-8d4a-4b7e-9c2d-1a2b3c4d5e6f")).toBe("https://x.example/hooks/3f2b6c1e-8d4a-4b7e-9c2d-1a2b3c4d5e6f");
    expect(redactUrl("https://x.example/IncomingWebhook/0123456789abcdef0123456789abcdef/x")).toBe("https://x.example/IncomingWebhook/***/x");
    expect(redactUrl("https://x.example/hook/abc_" + "Zz9".repeat(8))).toBe("https://x.example/hook/***");
  });

  it("never echoes what it cannot parse", () => {
    expect(redactUrl("not a url user:pw@host")).toBe("***");
    expect(redactUrl("mailto:ops@example.com?subject=x")).toBe("mailto:***");
  });

  it("finds URLs inside text, in linear time", () => {
    expect(redactUrlsIn(`POST to http://user:pw@host/hook?token=t failed: "503"`)).toBe(`POST to http://***@host/hook?token=*** failed: "503"`);
    expect(redactUrlsIn("plain words: 10:30, a:b")).toBe("plain words: 10:30, a:b");
    const long = "a".repeat(200_000) + " x://" + "b".repeat(200_000);
    const started = performance.now();
    redactUrlsIn(long);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
