import "server-only";
import { NextResponse, type NextRequest } from "next/server";

/**
 * A path whose percent-encoding does not decode (`/p/%zz`, `/api/p/x/messages/%E0%A4%A`).
 * Next's router fails to decode such a parameter and, in an app-router build (which has no
 * pages-router error page to show), answers a bare 500. proxy.ts answers it first: a 400 page,
 * or under /api the dashboard's JSON error naming the path.
 */
export function hasMalformedEscape(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

const MESSAGE = "the address is not valid percent-encoding (a stray % or bytes that are not UTF-8)";

export function malformedPathResponse(req: NextRequest): NextResponse | null {
  if (!hasMalformedEscape(req.nextUrl.pathname)) return null;
  if (req.nextUrl.pathname.startsWith("/api/")) {
    return NextResponse.json({ error: { message: `path: ${MESSAGE}`, code: "validation_error", param: "path" } }, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad request</title></head><body><main><h1>This address is not valid</h1><p>Part of the link is not properly encoded: ${MESSAGE}. Check the link with whoever sent it.</p><p><a href="/">Go to the dashboard</a></p></main></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Content-Security-Policy": "default-src 'none'" } });
}
