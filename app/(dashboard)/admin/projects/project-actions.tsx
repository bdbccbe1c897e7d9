"use client";

import * as React from "react";
import { MoreHorizontalIcon } from "lucide-react";
import type { ProjectView } from "@/lib/schemas/projects";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { Button } from "@/components/ui/button";

/** The menu, the rename and remove dialogs and their libraries (radix menu and dialog, react-hook-form, zod) load when the button is first used (./project-actions-menu.tsx). */
const load = () => import("./project-actions-menu");
const Menu = React.lazy(() => load().then((m) => ({ default: m.ProjectActionsMenu })));

export function ProjectActions({ project }: { project: ProjectView }) {
  const trigger = (
    <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${project.name}`} aria-haspopup="menu">
      <MoreHorizontalIcon aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={load} trigger={trigger} opensOn="pointerdown">
      {(menu) => <Menu project={project} {...menu} />}
    </LazyMenu>
  );
}
