"use client";

import { useEffect, useState } from "react";

/** The value once it has stopped changing for `ms`: the preview renders as the marketer types, not on every key. */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}
