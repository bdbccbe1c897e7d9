"use client";

import * as React from "react";
import { Link } from "@/components/common/link";
import { ChevronsUpDownIcon, FolderKanbanIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { LazyMenu } from "@/components/shell/lazy-menu";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";

const loadMenu = () => import("@/components/shell/project-switcher-menu");
const ProjectSwitcherMenu = React.lazy(() => loadMenu().then((m) => ({ default: m.ProjectSwitcherMenu })));

/** The current project; opening it lists the others (its code loads then), and picking one opens the same screen there. */
export function ProjectSwitcher() {
  const { projects, can } = useShell();
  const { project, inUrl } = useCurrentProject();

  if (projects.length === 0) {
    return can("projects:manage") ? (
      <Button asChild variant="outline" size="sm">
        <Link href="/admin/projects">
          <FolderKanbanIcon aria-hidden="true" />
          Register a project
        </Link>
      </Button>
    ) : (
      <span className="text-sm text-muted-foreground">No project access</span>
    );
  }

  const trigger = (
    <Button variant="outline" size="sm" role="combobox" aria-label={`Project: ${project?.name ?? "none"}. Switch project`} className="max-w-64 min-w-0 shrink justify-between gap-2">
      <FolderKanbanIcon className="text-muted-foreground" aria-hidden="true" />
      <span className="truncate">{inUrl || project ? project?.name : "Choose a project"}</span>
      <ChevronsUpDownIcon className="opacity-60" aria-hidden="true" />
    </Button>
  );
  return (
    <LazyMenu load={loadMenu} trigger={trigger} opensOn="click">
      {(menu) => <ProjectSwitcherMenu {...menu} />}
    </LazyMenu>
  );
}
