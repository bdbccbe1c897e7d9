"use client";

import type * as React from "react";
import { useRouter } from "next/navigation";
import type { PlainAppError } from "@/lib/errors";
import type { ParamPatch } from "@/components/hooks/search-params";
import { CursorPager } from "@/components/common/cursor-pager";
import { ErrorState } from "@/components/common/error-state";
import { cn } from "@/lib/utils";

/**
 * The body of a newest-first list the server renders from the URL (audit log, messages): the
 * parameters the link got wrong, then the list (`children`: its table or empty state) or why it
 * failed, dimmed while the next URL loads, and the timeline pager. `url` is the screen's own
 * useUrlState, so a change in the screen's filter bar dims the list too.
 */
export function TimelineResults({
  url,
  error,
  failure,
  invalid,
  cursor,
  next,
  pager,
  children,
}: {
  url: { set: (patch: ParamPatch) => void; isPending: boolean };
  error: PlainAppError | null;
  /** The error's title ("The messages could not be loaded"). */
  failure: string;
  invalid: { param: string; message: string }[];
  cursor: string | undefined;
  next: string | null | undefined;
  /** The pager's landmark name and its "older" button's text. */
  pager: { label: string; next: string };
  children: React.ReactNode;
}) {
  const router = useRouter();
  const { set, isPending } = url;
  return (
    <>
      {invalid.length > 0 && (
        <p role="status" className="rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground">
          Ignored in the link: {invalid.map((i) => `${i.param} ${i.message}`).join("; ")}.
        </p>
      )}
      <div className={cn("space-y-3 transition-opacity", isPending && "opacity-60")} aria-busy={isPending || undefined}>
        {error ? <ErrorState title={failure} error={error} onRetry={() => (error.param === "cursor" ? set({ cursor: null }) : router.refresh())} /> : children}
        <CursorPager
          variant="timeline"
          label={pager.label}
          next={pager.next}
          pending={isPending}
          onBack={cursor ? () => set({ cursor: null }) : undefined}
          onNext={next ? () => set({ cursor: next }) : undefined}
        />
      </div>
    </>
  );
}
