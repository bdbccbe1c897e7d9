"use client";

import { useUrlState } from "@/components/hooks/use-url-state";
import { CursorPager } from "@/components/common/cursor-pager";

/** "First page" / "Next page" under a list whose place lives in the URL's `cursor` parameter. */
export function UrlCursorPager({ next, className }: { next: string | null | undefined; className?: string }) {
  const { get, set } = useUrlState();
  return <CursorPager label="Pages" className={className} onBack={get("cursor") ? () => set({ cursor: null }) : undefined} onNext={next ? () => set({ cursor: next }) : undefined} />;
}
