"use client";

import { useState } from "react";
import { hashKey, useQuery, type QueryKey, type UseQueryOptions, type UseQueryResult } from "@tanstack/react-query";
import type { PlainAppError } from "@/lib/errors";

/**
 * useQuery for a screen whose page read the first answer (`firstLoad`): `options.initialData` seeds
 * it; when the page's read failed, that error is the query's error for the key the page read —
 * no request on mount to fail again — until Retry (`refetch`), which asks once and lets the query
 * run as usual from then on. Another key (a new filter or page) is read at once.
 */
export function useFirstLoadQuery<TData, TKey extends QueryKey>(
  options: UseQueryOptions<TData, Error, TData, TKey>,
  firstError: PlainAppError | null | undefined,
): Omit<UseQueryResult<TData, Error>, "error"> & { error: Error | PlainAppError | null } {
  const key = hashKey(options.queryKey);
  const [held, setHeld] = useState(() => (firstError ? { error: firstError, key, released: false } : null));
  // A new first load from the server (the page rendered again) replaces the one held.
  if (firstError && held?.error !== firstError) setHeld({ error: firstError, key, released: false });
  const holding = held !== null && held.key === key ? held : null;
  const query = useQuery({ ...options, enabled: holding && !holding.released ? false : options.enabled });
  if (!holding || query.data !== undefined || query.error) return query;
  return {
    ...query,
    error: holding.error,
    refetch: (() => setHeld({ ...holding, released: true })) as unknown as UseQueryResult<TData, Error>["refetch"],
  };
}
