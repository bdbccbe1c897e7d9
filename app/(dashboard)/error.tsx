"use client";

import { useEffect } from "react";
import { ErrorState } from "@/components/common/error-state";

/** A screen that failed to render; the sidebar and top bar around it keep working. */
export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    console.error(error);
  }, [error]);
  return <ErrorState title="This screen could not be shown" error={error} onRetry={retry} className="my-8" />;
}
