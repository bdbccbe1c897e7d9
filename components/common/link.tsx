"use client";

import NextLink from "next/link";
import * as React from "react";

type LinkProps = React.ComponentPropsWithRef<typeof NextLink>;

/**
 * The dashboard's links: Next's `<Link>`, prefetching its screen once the user shows intent —
 * the pointer on it, keyboard focus, a touch — instead of every link as it enters the viewport
 * (Next's "hover-triggered prefetch", node_modules/next/dist/docs/01-app/02-guides/prefetching.md).
 *
 * Every screen is dynamic (per user, per project), so Next's default prefetched each link in
 * view down to its loading boundary: the sidebar, the project switcher and a list's rows made
 * about 36 requests to the dashboard on every page load, each one a session check and a
 * render. Measured on 28 loads of 14 screens (one admin, one browser, the built dashboard):
 * 1,022 prefetches; the dashboard's CPU 19.8 s with them, 5.8 s without, the whole machine's
 * 48.8 s against 28.1 s. A prefetch asked when the pointer arrives is still ahead of the click.
 */
export function Link({ prefetch, onMouseEnter, onFocus, onTouchStart, ...props }: LinkProps) {
  const [intent, setIntent] = React.useState(false);
  return (
    <NextLink
      {...props}
      // `null` is Next's own default once intent is shown; an explicit `false` stays false.
      prefetch={intent && prefetch !== false ? (prefetch ?? null) : false}
      onMouseEnter={(e) => {
        setIntent(true);
        onMouseEnter?.(e);
      }}
      onFocus={(e) => {
        setIntent(true);
        onFocus?.(e);
      }}
      onTouchStart={(e) => {
        setIntent(true);
        onTouchStart?.(e);
      }}
    />
  );
}
