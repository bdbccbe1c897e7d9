import { describe, expect, it } from "vitest";
import { blockRemoteImages, countRemoteImages, emailSrcDoc } from "./email-srcdoc";

const HOSTILE = `<p>Hi</p><img src="https://tracker.example/p.gif"><img src='//cdn.example/a.png' srcset="https://x.example/b.png 2x"><img src="data:image/png;base64,AAA"><table background="http://x.example/bg.png"><tr><td style="background:url('https://x.example/c.png')">x</td></tr></table><a href="https://example.com">link</a><script>alert(1)</script>`;

describe("emailSrcDoc", () => {
  it("rewrites every remote image source and keeps inline ones", () => {
    const out = blockRemoteImages(HOSTILE);
    expect(out).not.toMatch(/\ssrc=["']?(https?:)?\/\//i);
    expect(out).not.toMatch(/\ssrcset=["']?https?:/i);
    expect(out).not.toMatch(/\sbackground=["']?https?:/i);
    expect(out).not.toMatch(/url\(['"]?https?:/i);
    expect(out).toContain('src="data:image/png;base64,AAA"');
    expect(countRemoteImages(HOSTILE)).toBe(5);
  });

  it("puts a CSP first that forbids scripts and remote images until allowed", () => {
    const doc = emailSrcDoc(HOSTILE);
    expect(doc.indexOf("Content-Security-Policy")).toBeLessThan(doc.indexOf("<p>Hi</p>"));
    expect(doc).toContain("script-src 'none'");
    expect(doc).toMatch(/img-src data: cid:;/);
    expect(emailSrcDoc(HOSTILE, { allowRemoteImages: true })).toContain("img-src data: cid: https: http:");
  });

  it("opens links in a new tab without opener or referrer", () => {
    const doc = emailSrcDoc(HOSTILE);
    expect(doc).toContain('<base target="_blank">');
    expect(doc).toContain('<a rel="noopener noreferrer" href="https://example.com">');
    expect(doc).toContain('name="referrer" content="no-referrer"');
  });
});
