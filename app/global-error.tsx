"use client";

import "./globals.css";

/**
 * The root layout itself failed, so nothing else (providers, theme, shell) can be trusted:
 * plain markup, the error reference, and a retry.
 */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <html lang="en">
      <body className="flex min-h-dvh items-center justify-center bg-background p-6 font-sans text-foreground">
        <title>Something went wrong · Mailroom</title>
        <main className="max-w-md space-y-3 text-center">
          <h1 className="text-xl font-semibold">Mailroom could not start this page</h1>
          <p className="text-sm text-muted-foreground">Try again. If it keeps failing, give the reference below to your administrator.</p>
          {digest && <p className="font-mono text-xs text-muted-foreground">Reference: {digest}</p>}
          <button type="button" onClick={() => retry()} className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground">
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
