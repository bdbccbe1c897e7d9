"use client";

import * as React from "react";
import type { ExternalToast } from "sonner";

/**
 * `toast.success()` / `toast.error()` for every screen, with sonner's code (and its styles)
 * loaded when the first toast is shown rather than with every page. Import toasts from here,
 * not from "sonner": what is toasted before the toaster has loaded waits in a queue and is
 * shown as soon as it has.
 */
type Kind = "success" | "error";
type Pending = { kind: Kind; message: string; options?: ExternalToast };
type Show = (pending: Pending) => void;

const queue: Pending[] = [];
let show: Show | null = null;
let wake: (() => void) | null = null;

function add(kind: Kind, message: string, options?: ExternalToast): void {
  const pending = { kind, message, options };
  if (show) return show(pending);
  queue.push(pending);
  wake?.();
}

export const toast = {
  success: (message: string, options?: ExternalToast) => add("success", message, options),
  error: (message: string, options?: ExternalToast) => add("error", message, options),
};

const Toaster = React.lazy(() => import("@/components/ui/sonner").then((m) => ({ default: m.Toaster })));

/** Where toasts appear; mounted once by the dashboard's providers, empty until the first toast. */
export function ToastHost() {
  const [wanted, setWanted] = React.useState(false);
  React.useEffect(() => {
    wake = () => setWanted(true);
    if (queue.length > 0) setWanted(true);
    return () => {
      wake = null;
      show = null;
    };
  }, []);
  if (!wanted) return null;
  return (
    <React.Suspense fallback={null}>
      <Toaster
        onReady={(sonner) => {
          show = (p) => void sonner[p.kind](p.message, p.options);
          for (const pending of queue.splice(0)) show(pending);
        }}
      />
    </React.Suspense>
  );
}
