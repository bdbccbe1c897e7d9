import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import type { TakenHealth } from "@/lib/schemas/health";
import { bannerHealthQuery, healthKeys } from "./health";

/**
 * The service banner starts from the reading its page was rendered with. Mounting it must not
 * ask /api/health (which loads zod to parse the answer) however old that reading is: a reading
 * past the query's ten seconds of freshness used to be fetched again the moment the page
 * hydrated, adding ~31 KiB to a screen's first load now and then (issue 14).
 */
const up = { state: "up", latencyMs: 12, problem: null, reason: null } as const;
const taken = (ageMs: number, value: TakenHealth["value"] = up): TakenHealth => ({ value, at: Date.now() - ageMs });

let client: QueryClient;
afterEach(() => client?.clear());

/** The banner's query as it mounts: whether it started a fetch, and when it polls next. */
function mount(initial: TakenHealth | null) {
  client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
  const options = bannerHealthQuery(initial);
  const observer = new QueryObserver(client, options);
  const unsubscribe = observer.subscribe(() => {});
  const fetching = observer.getCurrentResult().isFetching;
  const refetchInterval = options.refetchInterval;
  const query = client.getQueryCache().find({ queryKey: healthKeys.all }) as unknown as Parameters<Extract<typeof refetchInterval, (...args: never[]) => unknown>>[0];
  const interval = typeof refetchInterval === "function" ? refetchInterval(query) : refetchInterval;
  unsubscribe();
  return { fetching, interval, data: observer.getCurrentResult().data };
}

describe("the service banner's health query", () => {
  it("mounts on the page's reading without fetching, even one older than the probe cache", () => {
    for (const age of [0, 9_900, 10_100, 5 * 60_000]) {
      const { fetching, data } = mount(taken(age));
      expect(fetching, `a reading ${age} ms old`).toBe(false);
      expect(data).toEqual(up);
    }
  });

  it("without a reading from the page, asks at once (the check above can see a fetch)", () => {
    expect(mount(null).fetching).toBe(true);
  });

  it("polls every 30 s on a fresh reading of a service that is up, every 10 s on an old reading or a service that is not", () => {
    expect(mount(taken(500)).interval).toBe(30_000);
    expect(mount(taken(60_000)).interval).toBe(10_000);
    expect(mount(taken(500, { state: "down", latencyMs: null, problem: "unreachable", reason: "No answer." })).interval).toBe(10_000);
  });
});
