"use client";

import * as React from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ToastHost } from "@/components/ui/toast";
import { TooltipProvider } from "@/components/ui/tooltip";
import { isAppError } from "@/lib/errors";
import { PageStateMarker } from "./page-state";

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
 * Client-side context of the signed-in screens: queries, tooltips, toasts. The query cache
 * lives in memory only (no persistence), so nothing a user saw survives a sign-out or a
 * closed tab.
 */
export function DashboardProviders({ children }: { children: React.ReactNode }) {
  const [queryClient] = React.useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        {children}
        <ToastHost />
        <PageStateMarker client={queryClient} />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
