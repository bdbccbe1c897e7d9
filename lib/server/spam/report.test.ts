import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/server/env";
import { explain, parseReport } from "./report";
import { parseResponse, parseSpamHeader } from "./spamd";

// A REPORT body as Debian's spamd 4.0 writes it, with a description that wraps.
const REPORT = [
  "Spam detection software, running on the system \"vm\",",
  "has identified this incoming email as possible spam.",
  "",
  "Content analysis details:   (5.6 points, 5.0 required)",
  "",
  " pts rule name              description",
  "---- ---------------------- --------------------------------------------------",
  " 0.6 MISSING_MID            Missing Message-Id: header",
  "-0.0 NO_RECEIVED            Informational: message has no Received headers",
  " 0.5 SUBJ_ALL_CAPS          Subject is all capitals",
  " 1.8 DRUGS_ERECTILE         Refers to an erectile drug",
  " 2.2 SOME_NEW_RULE          A description long enough that spamd wraps it onto",
  "                            a second line",
  "",
].join("\n");

describe("SpamAssassin report", () => {
  it("reads every rule of the table, joining wrapped descriptions", () => {
    expect(parseReport(REPORT)).toEqual([
      { score: 0.6, name: "MISSING_MID", description: "Missing Message-Id: header" },
      { score: -0, name: "NO_RECEIVED", description: "Informational: message has no Received headers" },
      { score: 0.5, name: "SUBJ_ALL_CAPS", description: "Subject is all capitals" },
      { score: 1.8, name: "DRUGS_ERECTILE", description: "Refers to an erectile drug" },
      { score: 2.2, name: "SOME_NEW_RULE", description: "A description long enough that spamd wraps it onto a second line" },
    ]);
    expect(parseReport("no table here")).toEqual([]);
  });

  it("explains common rules in its own words and others from SpamAssassin's description", () => {
    expect(explain({ name: "SUBJ_ALL_CAPS", score: 0.5, description: "Subject is all capitals" })).toMatch(/capital letters/);
    expect(explain({ name: "HTML_IMAGE_RATIO_02", score: 0.8, description: "x" })).toMatch(/little text/);
    expect(explain({ name: "SOME_NEW_RULE", score: 2.2, description: "Looks odd." })).toBe("SpamAssassin's rule: Looks odd. It adds to the score.");
    expect(explain({ name: "OTHER", score: -1, description: "Good sign" })).toBe("SpamAssassin's rule: Good sign. It counts in the message's favour.");
  });

  it("parses spamd's status line, headers and score header", () => {
    const r = parseResponse("SPAMD/1.1 0 EX_OK\r\nContent-length: 3\r\nSpam: True ; 15.2 / 5.0\r\n\r\nabc");
    expect(r).toEqual({ code: 0, message: "EX_OK", headers: { "content-length": "3", spam: "True ; 15.2 / 5.0" }, body: "abc" });
    expect(parseSpamHeader(r.headers.spam)).toEqual({ isSpam: true, score: 15.2, threshold: 5 });
    expect(parseSpamHeader("False ; -0.1 / 5.0")).toEqual({ isSpam: false, score: -0.1, threshold: 5 });
    expect(parseResponse("SPAMD/1.0 76 Bad header line: x\r\n")).toMatchObject({ code: 76, message: "Bad header line: x" });
    expect(() => parseResponse("HTTP/1.1 200 OK\r\n\r\n")).toThrow(/not the SPAMD protocol/);
  });

  it("reads SPAMD_HOST, SPAMD_PORT and SPAMD_TIMEOUT_MS from the environment, with defaults", () => {
    const base = { SERVICE_URL: "http://127.0.0.1:4010", SERVICE_API_KEY: "k", AUTH_SECRET: "x".repeat(32) };
    expect(parseEnv(base)).toMatchObject({ SPAMD_PORT: 783, SPAMD_TIMEOUT_MS: 10_000 });
    expect(parseEnv(base).SPAMD_HOST).toBeUndefined();
    expect(parseEnv({ ...base, SPAMD_HOST: "127.0.0.1", SPAMD_PORT: "7830" })).toMatchObject({ SPAMD_HOST: "127.0.0.1", SPAMD_PORT: 7830 });
    expect(() => parseEnv({ ...base, SPAMD_PORT: "70000" })).toThrow(/SPAMD_PORT must be a port number/);
  });
});
