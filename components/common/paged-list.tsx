"use client";

import type * as React from "react";
import type { Page } from "@/lib/schemas/common";
import { ErrorState } from "@/components/common/error-state";
import { UrlCursorPager } from "@/components/common/url-cursor-pager";

/**
 * A cursor-paged list read with useQuery, in its states: why it failed when nothing was ever read
 * (with a retry), the skeleton until the first page arrives, the empty state when the page holds
 * no row, else the rows (`children`) with the First/Next pager under them.
 */
export function PagedList<T>({
  query,
  failure,
  skeleton,
  empty,
  children,
}: {
  query: { data: Page<T> | undefined; error: Error | null; isFetching: boolean; refetch: () => unknown };
  /** The error's title ("The domains could not be loaded"). */
  failure: string;
  skeleton: React.ReactNode;
  empty: React.ReactNode;
  children: (rows: T[]) => React.ReactNode;
}) {
  if (query.error && !query.data) return <ErrorState title={failure} error={query.error} onRetry={() => query.refetch()} retrying={query.isFetching} />;
  if (!query.data) return skeleton;
  if (query.data.data.length === 0) return empty;
  return (
    <>
      {children(query.data.data)}
      <UrlCursorPager next={query.data.nextCursor} />
    </>
  );
}
