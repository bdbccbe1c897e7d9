"use client";

import * as React from "react";
import { useTheme } from "next-themes";
import { Toaster as Sonner, toast, type ToasterProps } from "sonner";

/**
 * Toasts follow the app's theme and colour tokens. Loaded with the first toast
 * (components/ui/toast.tsx); `onReady` hands over sonner's `toast` once the toaster listens.
 */
export function Toaster({ onReady, ...props }: ToasterProps & { onReady?: (sonner: typeof toast) => void }) {
  const { resolvedTheme } = useTheme();
  // The toaster subscribes in its own effect, which runs before this one.
  React.useEffect(() => onReady?.(toast), [onReady]);
  return (
    <Sonner
      theme={(resolvedTheme as ToasterProps["theme"]) ?? "system"}
      position="bottom-right"
      closeButton
      className="toaster group"
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}
