"use client";

import { useEffect } from "react";
import { buttonVariants } from "@/components/ui/button-variants";
import { describeError } from "@/components/common/error-advice";

/**
 * A page outside the dashboard's frame (sign-in, "/") that throws while rendering: what
 * failed, a retry, and a way out. Plain markup: this boundary loads with every page, the
 * sign-in page included, which should stay light (no icons, no router link, no slot), and the dashboard's copy buttons and tooltips need
 * providers only the signed-in screens have (they use app/(dashboard)/error.tsx). The
 * reference can be selected in one click.
 */
export default function Error({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  const { message, advice, correlationId } = describeError(error);
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-12">
      <div role="alert" className="flex w-full flex-col items-center gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-6 py-10 text-center text-sm">
        <div className="max-w-md space-y-1">
          <p className="font-medium">This page could not be shown</p>
          <p className="text-muted-foreground">
            {message} {advice}
          </p>
          {correlationId && (
            <p className="text-xs text-muted-foreground">
              Reference <code className="font-mono select-all">{correlationId}</code>
            </p>
          )}
        </div>
        <button type="button" data-slot="button" className={buttonVariants({ variant: "outline", size: "sm" })} onClick={retry}>
          Try again
        </button>
      </div>
      <a href="/" data-slot="button" className={buttonVariants({ variant: "link" })}>
        Go to the dashboard
      </a>
    </main>
  );
}
