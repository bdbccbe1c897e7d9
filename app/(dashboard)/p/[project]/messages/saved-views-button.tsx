"use client";

import * as React from "react";
import { BookmarkIcon, ChevronDownIcon } from "lucide-react";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { Button } from "@/components/ui/button";

/** The menu, its dialogs and their libraries (radix menu and dialog, react-hook-form, zod) load when the button is first used (./saved-views-menu.tsx). */
const load = () => import("./saved-views-menu");
const Menu = React.lazy(() => load().then((m) => ({ default: m.SavedViewsMenu })));

/** "Views" beside the search: saved searches of this project (issue 28), kept apart from the other controls of the screen. */
export function SavedViewsButton({ project }: { project: string }) {
  const trigger = (
    <Button variant="outline" aria-haspopup="menu">
      <BookmarkIcon aria-hidden="true" />
      Views
      <ChevronDownIcon aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={load} trigger={trigger} opensOn="pointerdown">
      {(menu) => <Menu project={project} {...menu} />}
    </LazyMenu>
  );
}
