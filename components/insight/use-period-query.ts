"use client";

import { keepPreviousData, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import type { FirstLoad } from "@/components/common/first-load";
import { useFirstLoadQuery } from "@/components/hooks/use-first-load-query";
import { useUrlState } from "@/components/hooks/use-url-state";
import { rangeFrom, type OverviewRange } from "@/lib/insight/ranges";

/**
 * An insight screen's period and its figures for it: the period lives in the URL (`?range=`, 7
 * days when absent, so the default leaves it out), the page's first load seeds the query only for
 * the period it read, and the last period's figures stay on screen while the next ones load.
 */
export function usePeriodQuery<TData extends { range: OverviewRange }, TKey extends QueryKey>(
  options: (range: OverviewRange) => UseQueryOptions<TData, Error, TData, TKey>,
  initial: FirstLoad<TData>,
) {
  const url = useUrlState();
  const range = rangeFrom(url.get("range"));
  const query = useFirstLoadQuery(
    {
      ...options(range),
      initialData: initial.data?.range === range ? initial.data : undefined,
      placeholderData: keepPreviousData,
    },
    initial.error,
  );
  const setRange = (r: OverviewRange) => url.set({ range: r === "7d" ? null : r });
  return { url, range, setRange, query };
}
