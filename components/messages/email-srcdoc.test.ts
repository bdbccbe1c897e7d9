import { describe, expect, it } from "vitest";
import { blockRemoteImages, countRemoteImages, emailSrcDoc } from "./email-document";
import { bestTimeMs } from "@/lib/test/best-time";

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

describe("emailSrcDoc on a stranger's degenerate html (issue 25: one inbound email froze its readers)", () => {
  // The regular expressions before rescanned from every tag start: 300 KB of `<a ` took
  // tens of seconds. One pass of the tokenizer takes milliseconds.
  it("builds the srcdoc of 300 KB of `<a ` in well under a second, and 10x the input costs about 10x", () => {
    emailSrcDoc("<a ".repeat(1_000)); // warm up
    const html = "<a ".repeat(100_000);
    expect(bestTimeMs(() => emailSrcDoc(html))).toBeLessThan(1_000);
    expect(bestTimeMs(() => countRemoteImages(html))).toBeLessThan(1_000);
    // 100 KB and 1 MB: linear is ~10x, quadratic (as before) ~100x. The floor keeps timer noise out of a small figure.
    const small = bestTimeMs(() => emailSrcDoc("<a ".repeat(33_333)));
    const large = bestTimeMs(() => emailSrcDoc("<a ".repeat(333_333)));
    expect(large / Math.max(small, 2)).toBeLessThan(40);
  });

  it.each([
    ["<img src=", (n: number) => "<img src=".repeat(n / 9)],
    ["<img src=\"", (n: number) => "<img src=\"".repeat(n / 10)],
    ["background attributes", (n: number) => "<td background=x ".repeat(n / 17)],
    ["url( and spaces in a style", (n: number) => `<p style="background:url(${" ".repeat(n)}">`],
    ["url( repeated in <style>", (n: number) => `<style>${"url(".repeat(n / 4)}`],
    ["entities in an attribute", (n: number) => `<img src="${"&#".repeat(n / 2)}">`],
    ["unclosed comments", (n: number) => "<!--".repeat(n / 4)],
  ])("reads 300 KB of %s in well under a second", (_name, make) => {
    const html = make(300_000);
    emailSrcDoc(html.slice(0, 1000));
    expect(bestTimeMs(() => emailSrcDoc(html))).toBeLessThan(1_000);
  });
});

describe("what the rewriting blocks", () => {
  const blocked = (html: string) => blockRemoteImages(html);

  it("sees remote sources as a browser reads them: entities, leading spaces, line breaks, upper case, any scheme or a relative path", () => {
    for (const src of ["&#104;ttps://t.example/p.gif", "https&colon;//t.example/p.gif", "   https://t.example/p.gif", "ht\ntps://t.example/p.gif", "HTTPS://T.EXAMPLE/P.GIF", "\\\\t.example/p.gif", "/api/x.png", "p.gif"]) {
      const out = blocked(`<IMG SRC="${src}">`);
      expect(out, src).toContain(`data-remote-src="${src}"`);
      expect(countRemoteImages(`<IMG SRC="${src}">`), src).toBe(1);
    }
  });

  it("keeps inline images, fragments and empty sources", () => {
    const html = `<img src="data:image/png;base64,AAA"><img src="cid:logo@x"><img src=""><svg><rect style="fill:url(#g)"/></svg><img srcset="data:image/png;base64,AAA 1x, cid:x 2x">`;
    expect(blocked(html)).toBe(html);
    expect(countRemoteImages(html)).toBe(0);
  });

  it("blocks a remote candidate anywhere in a srcset, SVG image hrefs, and CSS urls in style elements and attributes", () => {
    expect(blocked(`<img srcset="a.png, https://x.example/b.png 2x">`)).toContain("data-remote-srcset=");
    expect(blocked(`<svg><image href="https://x.example/i.png"/><image xlink:href="//x.example/j.png"/></svg>`)).not.toMatch(/\s(xlink:)?href=/);
    const css = blocked(`<style>body{background:URL( 'https://x.example/a.png' )} .b{background:url(data:image/png;base64,AA)}</style><p style="background:url(&quot;https://x.example/b.png&quot;)">x</p>`);
    expect(css).toContain("URL( 'about:blank#remote-https://x.example/a.png' )");
    expect(css).toContain("url(data:image/png;base64,AA)");
    expect(css).toContain('style="background:url(&quot;about:blank#remote-https://x.example/b.png&quot;)"');
    expect(countRemoteImages(`<style>a{background:url(https://x/a)}</style><p style="background:url(//x/b)">`)).toBe(2);
  });

  it("gives every link and area the rel, and takes away meta refresh", () => {
    const doc = emailSrcDoc(`<A HREF="https://e.example">a</A><map><area href="https://e.example"></map><meta http-equiv="refresh" content="0;url=https://t.example/opened">`);
    expect(doc).toContain('<A rel="noopener noreferrer" HREF="https://e.example">');
    expect(doc).toContain('<area rel="noopener noreferrer" href="https://e.example">');
    expect(doc).not.toMatch(/<meta http-equiv="refresh"/i);
    expect(doc).toContain('data-blocked-http-equiv="refresh"');
  });

  it("leaves the rest of the document as it was, byte for byte", () => {
    const html = `<!doctype html><!--[if mso]><table><![endif]--><p class=a title='&amp;'>Hi &amp; bye <b>x</b></p><script>if (a < b) {}</script><img src="data:,">`;
    expect(blocked(html)).toBe(html);
  });
});
