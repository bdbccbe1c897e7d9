"use client";

import { useEffect } from "react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ErrorState } from "@/components/common/error-state";

/** Any screen that throws while rendering: what failed, a retry, and a way out. */
export default function Error({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-12">
      <ErrorState title="This page could not be shown" error={error} onRetry={retry} className="w-full" />
      <Button asChild variant="link">
        <Link href="/">Go to the dashboard</Link>
      </Button>
    </div>
  );
}
