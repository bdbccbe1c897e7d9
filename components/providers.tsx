"use client";

import { ThemeProvider } from "next-themes";

// next-themes' inline script must run from the server HTML. When React renders the root
// again in the browser (after a notFound()/forbidden() during streaming) it would recreate
// the <script> and warn; a data-block type keeps that copy inert and silent.
const themeScriptProps = { type: typeof window === "undefined" ? "text/javascript" : "application/json", suppressHydrationWarning: true } as const;

/**
 * What every page needs, the sign-in page included: the theme. `nonce` lets next-themes'
 * inline script run under the Content-Security-Policy. The signed-in screens add their own
 * (components/shell/dashboard-providers.tsx), so the sign-in page does not load them.
 */
export function Providers({ nonce, children }: { nonce?: string; children: React.ReactNode }) {
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce} scriptProps={themeScriptProps}>
      {children}
    </ThemeProvider>
  );
}
