import { describe, expect, it } from "vitest";
import { createNonce, pageContentSecurityPolicy, STATIC_SECURITY_HEADERS, strictTransportSecurity } from "./security-headers";

describe("security headers", () => {
  it("builds a nonce-based CSP without unsafe-inline scripts", () => {
    const csp = pageContentSecurityPolicy("abc", { dev: false, https: false });
    expect(csp).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
    for (const d of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-src 'self'", "img-src 'self' data: blob:"]) {
      expect(csp).toContain(d);
    }
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(pageContentSecurityPolicy("abc", { dev: true, https: true })).toContain("'unsafe-eval'");
    expect(pageContentSecurityPolicy("abc", { dev: false, https: true })).toContain("upgrade-insecure-requests");
  });

  it("makes a fresh, unguessable nonce each time", () => {
    const a = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(createNonce()).not.toBe(a);
  });

  it("sets nosniff, DENY framing and a strict referrer policy", () => {
    const h = Object.fromEntries(STATIC_SECURITY_HEADERS.map((x) => [x.key, x.value]));
    expect(h["X-Content-Type-Options"]).toBe("nosniff");
    expect(h["X-Frame-Options"]).toBe("DENY");
    expect(h["Referrer-Policy"]).toBe("same-origin");
  });

  it("sends HSTS only when served over https", () => {
    expect(strictTransportSecurity(true)).toBe("max-age=63072000; includeSubDomains");
    expect(strictTransportSecurity(false)).toBeNull();
  });
});
