"use client";

import { useSyncExternalStore } from "react";

/**
 * One shared clock for every relative time on the page: a table of 100 rows re-renders on a
 * single 30-second tick instead of running 100 timers.
 */
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
const loadedAt = Date.now();
let now = loadedAt;
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  // A fresh reading on mount: React compares it with the snapshot it rendered with and
  // re-renders at once, so text rendered on the server (or on an earlier page) is corrected.
  now = Date.now();
  if (!timer) {
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

const getSnapshot = () => now;
// On the server: the time of this render. In the browser, during hydration: a fixed value,
// replaced by the live clock right after (see subscribe).
const getServerSnapshot = () => (typeof window === "undefined" ? Date.now() : loadedAt);

export function useNow(): number {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
