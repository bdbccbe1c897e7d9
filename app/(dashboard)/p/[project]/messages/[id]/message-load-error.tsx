"use client";

import { useRouter } from "next/navigation";
import type { PlainAppError } from "@/lib/errors";
import { PageHeader } from "@/components/common/page-header";
import { ErrorState } from "@/components/common/error-state";

export function MessageLoadError({ id, error }: { project: string; id: string; error: PlainAppError }) {
  const router = useRouter();
  return (
    <div className="space-y-5">
      <PageHeader title="Message" description={<span className="font-mono">{id}</span>} />
      <ErrorState title="The message could not be loaded" error={error} onRetry={() => router.refresh()} />
    </div>
  );
}
