import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { Providers } from "@/components/providers";
import { PageStateMarker } from "@/components/shell/page-state";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Mailroom", template: "%s · Mailroom" },
  description: "Dashboard for the transactional email service: messages, templates, domains, keys and webhooks.",
  robots: { index: false, follow: false },
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#18181b" },
  ],
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // proxy.ts puts the per-request CSP nonce here; next-themes needs it for its inline script.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // next-themes sets the theme class before hydration, hence suppressHydrationWarning.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh font-sans">
        <Providers nonce={nonce}>{children}</Providers>
        <PageStateMarker />
      </body>
    </html>
  );
}
