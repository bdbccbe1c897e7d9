"use client";

import * as React from "react";
import { notifyManager, type QueryClient } from "@tanstack/react-query";

const root = () => document.documentElement;
const STATE_EVENTS = new Set(["added", "removed", "updated"]);
const working = (client: QueryClient) => client.isFetching() + client.isMutating() > 0;

/**
 * What the browser tests wait for before they check a page (scripts/lib/page-quiet.ts), told
 * in data attributes on <html> and nothing else. `data-hydrated`: React has hydrated the page
 * (mounted in the root layout, so every page says it). With the signed-in screens' query
 * client: `data-queries`, "busy" from the moment a query fetches or a mutation runs, and
 * "idle" only once React has committed what the last one brought, so that a query the answer
 * enables (or a refetch a mutation causes) has started, and said "busy" again, by then.
 */
export function PageStateMarker({ client }: { client?: QueryClient }) {
  const [changes, changed] = React.useReducer((n: number) => n + 1, 0);
  React.useEffect(() => {
    root().dataset.hydrated = "";
  }, []);
  React.useEffect(() => {
    if (!client) return;
    // The re-render goes through the query library's own batch, so it commits with (or after)
    // the screens' renders of the same change, never before them.
    const rerender = notifyManager.batchCalls(changed);
    const onChange = (event: { type: string }) => {
      // Fetching and running change with a query's or a mutation's state ("updated"), or as one
      // comes or goes; an observer's options or results alone change nothing of it.
      if (!STATE_EVENTS.has(event.type)) return;
      if (working(client)) root().dataset.queries = "busy";
      rerender();
    };
    const unsubscribe = [client.getQueryCache().subscribe(onChange), client.getMutationCache().subscribe(onChange)];
    return () => {
      for (const stop of unsubscribe) stop();
      delete root().dataset.queries;
    };
  }, [client]);
  React.useEffect(() => {
    if (client) root().dataset.queries = working(client) ? "busy" : "idle";
  }, [client, changes]);
  return null;
}
