"use client";

import { useCallback, useTransition } from "react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { mergeSearchParams, type ParamPatch } from "@/components/hooks/search-params";

/**
 * Filters, tabs and pages live in the URL so a pasted link opens the same view and Back
 * works. `set` pushes a history entry (or replaces it, for typing), inside a transition so
 * the current view stays on screen with `isPending` while the next one loads.
 */
export function useUrlState() {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const [isPending, startTransition] = useTransition();

  const set = useCallback(
    (patch: ParamPatch, options: { replace?: boolean; keepCursor?: boolean } = {}) => {
      const qs = mergeSearchParams(searchParams, patch, options);
      const href = qs ? `${pathname}?${qs}` : pathname;
      startTransition(() => {
        if (options.replace) router.replace(href, { scroll: false });
        else router.push(href, { scroll: false });
      });
    },
    [pathname, router, searchParams],
  );

  return { searchParams, get: (key: string) => searchParams.get(key), set, isPending };
}
