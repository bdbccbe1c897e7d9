import { describe, expect, it } from "vitest";
import { consumerProvider, mxHostProvider, providerFromMx } from "./providers";

describe("mailbox providers", () => {
  it.each([
    ["gmail.com", "gmail"],
    ["GoogleMail.com.", "gmail"],
    ["outlook.com", "microsoft"],
    ["hotmail.co.uk", "microsoft"],
    ["hotmail.fr", "microsoft"],
    ["live.com.au", "microsoft"],
    ["msn.com", "microsoft"],
    ["yahoo.com", "yahoo"],
    ["yahoo.co.uk", "yahoo"],
    ["yahoo.com.br", "yahoo"],
    ["ymail.com", "yahoo"],
    ["rocketmail.com", "yahoo"],
    ["aol.com", "yahoo"],
    ["aol.de", "yahoo"],
    ["icloud.com", "apple"],
    ["me.com", "apple"],
    ["mac.com", "apple"],
  ])("knows the consumer domain %s", (domain, provider) => {
    expect(consumerProvider(domain)).toBe(provider);
  });

  it.each(["acme.com", "yahoo.co.jp", "hotmail.example.org", "livecorp.com", "mail.gmail.com.evil.test", "gmail", ""])("leaves %s to the MX lookup", (domain) => {
    expect(consumerProvider(domain)).toBeNull();
  });

  it("reads company domains from their MX hosts, the most preferred recognised host deciding", () => {
    expect(mxHostProvider("aspmx.l.google.com.")).toBe("gmail");
    expect(mxHostProvider("alt2.aspmx.l.google.com")).toBe("gmail");
    expect(mxHostProvider("ASPMX2.GOOGLEMAIL.COM")).toBe("gmail");
    expect(mxHostProvider("acme-com.mail.protection.outlook.com")).toBe("microsoft");
    expect(mxHostProvider("mta7.am0.yahoodns.net")).toBe("yahoo");
    expect(mxHostProvider("mx01.mail.icloud.com")).toBe("apple");
    expect(mxHostProvider("mx1.acme-mail.com")).toBeNull();
    expect(mxHostProvider("notgoogle.com")).toBeNull();
    expect(providerFromMx([{ exchange: "mx.proofpoint.example", priority: 10 }, { exchange: "aspmx.l.google.com", priority: 20 }])).toBe("gmail");
    expect(providerFromMx([{ exchange: "b.mail.protection.outlook.com", priority: 20 }, { exchange: "aspmx.l.google.com", priority: 5 }])).toBe("gmail");
    expect(providerFromMx([{ exchange: "mx.example.net", priority: 10 }])).toBe("other");
    expect(providerFromMx([])).toBe("other");
  });
});
