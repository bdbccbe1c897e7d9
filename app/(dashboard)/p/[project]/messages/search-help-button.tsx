"use client";

import * as React from "react";
import { CircleHelpIcon } from "lucide-react";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { Button } from "@/components/ui/button";

/** The term list's popover (radix popover and its positioning) loads when the button is first used (./search-help-popover.tsx). */
const loadHelp = () => import("./search-help-popover");
const HelpPopover = React.lazy(() => loadHelp().then((m) => ({ default: m.SearchHelpPopover })));

export function SearchHelpButton() {
  const trigger = (
    <Button type="button" variant="ghost" size="icon" aria-label="Search terms help" aria-haspopup="dialog">
      <CircleHelpIcon aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={loadHelp} trigger={trigger} opensOn="click">
      {(popover) => <HelpPopover {...popover} />}
    </LazyMenu>
  );
}
