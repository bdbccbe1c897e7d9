"use client";

import * as React from "react";
import { MenuIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";

const MOBILE_NAV_ID = "main-menu";

const loadDrawer = () => import("@/components/shell/mobile-nav-drawer");
const MobileNavDrawer = React.lazy(() => loadDrawer().then((m) => ({ default: m.MobileNavDrawer })));

/**
 * Below the `md` width the sidebar is hidden and this button, first in the top bar, opens the
 * same navigation in a drawer from the left. The drawer's code (radix's dialog) loads when it
 * is first reached for, as the top bar's menus do.
 */
export function MobileNav() {
  const trigger = (
    <Button variant="ghost" size="icon" className="-ml-2 size-11 md:hidden" aria-label="Menu" aria-controls={MOBILE_NAV_ID}>
      <MenuIcon className="size-5!" aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={loadDrawer} trigger={trigger} opensOn="click">
      {(menu) => <MobileNavDrawer id={MOBILE_NAV_ID} {...menu} />}
    </LazyMenu>
  );
}
