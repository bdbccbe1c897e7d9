import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { presendDraft } from "@/lib/schemas/presend";
import { setTestEnv } from "@/lib/server/test-helpers";
import { HOW_TO_ENABLE, scoreDraft, spamdSettings } from "./score";
import { buildMessage } from "./message";
import { spamdRequest } from "./spamd";

/**
 * Against a real spamd, reached through SPAMD_HOST/SPAMD_PORT (.ci/run starts one). Without
 * those variables the spamd cases do not run — except in CI, where that is a failure:
 * a configured-but-missing spamd must never pass silently.
 */
if (process.env.CI === "true" && !process.env.SPAMD_HOST) {
  throw new Error("CI=true but SPAMD_HOST is not set: .ci/run must start spamd and export SPAMD_HOST and SPAMD_PORT.");
}
const SPAMD = { SPAMD_HOST: process.env.SPAMD_HOST, SPAMD_PORT: process.env.SPAMD_PORT };
const realSpamd = Boolean(SPAMD.SPAMD_HOST);

const draft = (over: Record<string, unknown>) => presendDraft.parse(over);
const spammy = draft({
  subject: "FREE VIAGRA CHEAP NOW",
  html: "<html><body><p>Buy viagra now, cheap cialis, click here!!! Lots of money for you.</p></body></html>",
});
const clean = draft({
  subject: "Your order has shipped",
  from: "orders@acme.test",
  html: "<html><body><p>Hello Ada, your order 1042 left our warehouse this morning and should arrive on Thursday.</p></body></html>",
  text: "Hello Ada, your order 1042 left our warehouse this morning and should arrive on Thursday.",
});

describe("the message SpamAssassin scores", () => {
  it("is a real MIME message with the draft's parts, headers and attachment names, and no injected header", async () => {
    const raw = await buildMessage(
      draft({
        subject: "Größe",
        html: "<p>Hi</p>",
        text: "Hi",
        headers: { "List-Unsubscribe": "<https://acme.test/u>\r\nBcc: victim@example.com" },
        attachments: [{ filename: "invoice.pdf", size: 1234, contentType: "application/pdf" }],
      }),
    );
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe("Größe");
    expect(parsed.html).toContain("<p>Hi</p>");
    expect(parsed.text?.trim()).toBe("Hi");
    expect(parsed.messageId).toBeTruthy();
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headerLines.find((h) => h.key === "list-unsubscribe")?.line).toBe("List-Unsubscribe: <https://acme.test/u> Bcc: victim@example.com");
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([["invoice.pdf", "application/pdf"]]);
  });
});

describe("spam score without a usable spamd", () => {
  let silent: Server;
  let garbage: Server;
  const listen = async (server: Server) => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    return (server.address() as AddressInfo).port;
  };
  beforeAll(() => {
    silent = createServer(() => {});
    garbage = createServer((socket) => socket.end("HTTP/1.1 400 Bad Request\r\n\r\n"));
  });
  afterAll(() => {
    silent.close();
    garbage.close();
  });

  it("says how to enable SpamAssassin when it is not configured", async () => {
    setTestEnv({ SPAMD_HOST: undefined, SPAMD_PORT: undefined });
    expect(spamdSettings()).toBeNull();
    expect(await scoreDraft(clean)).toEqual({ unavailable: expect.stringMatching(/not configured/), howToEnable: HOW_TO_ENABLE });
  });

  it("holds the whole exchange to the timeout: a spamd that trickles its answer a byte at a time is given up on at the deadline", async () => {
    // Finding 8 of the second review: the timeout was an idle timeout, so a byte every 2 s kept a check waiting for 40 s.
    // allowHalfOpen: the client ends its side once the message is sent, as spamc does; the answer still comes.
    const trickle = createServer({ allowHalfOpen: true }, (socket) => {
      socket.on("data", () => {});
      socket.on("error", () => {}); // the client hangs up at its deadline, mid-trickle
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.destroyed || ++sent > 50) {
          clearInterval(timer);
          socket.end();
          return;
        }
        socket.write("S");
      }, 100);
      socket.on("close", () => clearInterval(timer));
    });
    try {
      const started = Date.now();
      expect(await scoreDraft(clean, { host: "127.0.0.1", port: await listen(trickle), timeoutMs: 500 })).toEqual({ unavailable: expect.stringMatching(/did not finish its answer within 500 ms/) });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      trickle.close();
    }
  });

  it("reads at most 1 MB of an answer", async () => {
    const flood = createServer({ allowHalfOpen: true }, (socket) => {
      socket.on("data", () => {});
      socket.on("error", () => {});
      socket.write(`SPAMD/1.1 0 EX_OK\r\n\r\n${"x".repeat(2 * 1024 * 1024)}`);
    });
    try {
      expect(await scoreDraft(clean, { host: "127.0.0.1", port: await listen(flood), timeoutMs: 5000 })).toEqual({ unavailable: expect.stringMatching(/more than 1 MB/) });
    } finally {
      flood.close();
    }
  });

  it("reports a refused connection, a silent server and a server that is not spamd, without throwing", async () => {
    const closed = await listen(silent);
    expect(await scoreDraft(clean, { host: "127.0.0.1", port: 1, timeoutMs: 2000 })).toEqual({ unavailable: expect.stringMatching(/nothing listens at 127\.0\.0\.1:1/) });
    expect(await scoreDraft(clean, { host: "127.0.0.1", port: closed, timeoutMs: 300 })).toEqual({ unavailable: expect.stringMatching(/did not answer within 300 ms/) });
    expect(await scoreDraft(clean, { host: "127.0.0.1", port: await listen(garbage), timeoutMs: 2000 })).toEqual({ unavailable: expect.stringMatching(/not the SPAMD protocol/) });
  });
});

describe.skipIf(!realSpamd)("against a real spamd (SPAMD_HOST)", () => {
  beforeAll(() => setTestEnv(SPAMD));
  const settings = () => spamdSettings()!;

  it("answers PING", async () => {
    const pong = await spamdRequest("PING", null, settings());
    expect([pong.code, pong.message]).toEqual([0, "PONG"]);
  });

  it("scores a spammy draft with every rule hit, explained", async () => {
    const result = await scoreDraft(spammy);
    if ("unavailable" in result) throw new Error(`spamd is configured but unusable: ${result.unavailable}`);
    expect(result.threshold).toBeGreaterThan(0);
    expect(result.score).toBeGreaterThan(0);
    expect(result.isSpam).toBe(result.score >= result.threshold);
    const names = result.rules.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["SUBJ_ALL_CAPS", "MIME_HTML_ONLY"]));
    expect(names.some((n) => n.startsWith("DRUGS_"))).toBe(true);
    for (const rule of result.rules) {
      expect(rule.description.length).toBeGreaterThan(0);
      expect(rule.explanation.length).toBeGreaterThan(0);
    }
    expect(result.rules.find((r) => r.name === "SUBJ_ALL_CAPS")!.explanation).toMatch(/capital letters/);
    // The sum of the rules is the score SpamAssassin reports (to its one-decimal rounding per rule).
    expect(Math.abs(result.rules.reduce((s, r) => s + r.score, 0) - result.score)).toBeLessThan(0.1 * result.rules.length + 0.05);
  });

  it("scores a clean draft lower, with Date and Message-ID present as a sending service adds them", async () => {
    const good = await scoreDraft(clean);
    const bad = await scoreDraft(spammy);
    if ("unavailable" in good || "unavailable" in bad) throw new Error("spamd is configured but unusable");
    expect(good.score).toBeLessThan(bad.score);
    expect(good.isSpam).toBe(false);
    expect(good.rules.map((r) => r.name)).not.toEqual(expect.arrayContaining(["MISSING_DATE"]));
    expect(good.rules.map((r) => r.name)).not.toContain("MISSING_MID");
  });
});
