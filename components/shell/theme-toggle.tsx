"use client";

import * as React from "react";
import { MoonIcon, SunIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";

const loadMenu = () => import("@/components/shell/theme-menu");
const ThemeMenu = React.lazy(() => loadMenu().then((m) => ({ default: m.ThemeMenu })));

export function ThemeToggle() {
  const trigger = (
    <Button variant="ghost" size="icon-sm" aria-label="Change theme" aria-haspopup="menu">
      <SunIcon className="dark:hidden" aria-hidden="true" />
      <MoonIcon className="hidden dark:block" aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={loadMenu} trigger={trigger} opensOn="pointerdown">
      {(menu) => <ThemeMenu {...menu} />}
    </LazyMenu>
  );
}
