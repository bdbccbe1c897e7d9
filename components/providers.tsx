"use client";

import * as React from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ThemeProvider } from "next-themes";
import { Toaster } from "@/components/ui/sonner";
import { TooltipProvider } from "@/components/ui/tooltip";
import { isAppError } from "@/lib/errors";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Server components hand over the first page; do not refetch it straight away.
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        // Retrying a refusal or a bad request only delays the message the user needs to see.
        retry: (failureCount, error) => {
          if (isAppError(error) && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
          return failureCount < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

/**
 * Client-side context for the whole app. The query cache lives in memory only (no
 * persistence), so nothing a user saw survives a sign-out or a closed tab. `nonce` lets
 * next-themes' inline script run under the Content-Security-Policy.
 */
// next-themes' inline script must run from the server HTML. When React renders the root
// again in the browser (after a notFound()/forbidden() during streaming) it would recreate
// the <script> and warn; a data-block type keeps that copy inert and silent.
const themeScriptProps = { type: typeof window === "undefined" ? "text/javascript" : "application/json", suppressHydrationWarning: true } as const;

export function Providers({ nonce, children }: { nonce?: string; children: React.ReactNode }) {
  const [queryClient] = React.useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce} scriptProps={themeScriptProps}>
        <TooltipProvider>
          {children}
          <Toaster />
        </TooltipProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
