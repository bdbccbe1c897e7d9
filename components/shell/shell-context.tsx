"use client";

import * as React from "react";
import { usePathname } from "next/navigation";
import type { Role } from "@/lib/permissions";
import type { ProjectView } from "@/lib/schemas/projects";
import { allows, type Permission } from "@/lib/permissions";
import { projectFromPath } from "@/components/shell/nav";
import { pickProject, rememberProjectCookie } from "@/components/shell/last-project";

/** `allProjects`: whether the user may open every project; account-wide permissions need it. */
export type ShellUser = { id: string; email: string; name: string | null; role: Role; allProjects: boolean };
export type ShellProject = Pick<ProjectView, "id" | "externalId" | "name">;

type ShellValue = { user: ShellUser; projects: ShellProject[]; lastProject: string | null };

const ShellContext = React.createContext<ShellValue | null>(null);

/** What every part of the shell needs: who is signed in, which projects they may open. */
export function ShellProvider({ value, children }: { value: ShellValue; children: React.ReactNode }) {
  const pathname = usePathname();
  const inPath = projectFromPath(pathname);
  React.useEffect(() => {
    if (inPath && value.projects.some((p) => p.externalId === inPath)) document.cookie = rememberProjectCookie(inPath);
  }, [inPath, value.projects]);
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

export function useShell(): ShellValue & { can: (permission: Permission) => boolean } {
  const value = React.useContext(ShellContext);
  if (!value) throw new Error("useShell must be used inside <ShellProvider>");
  return { ...value, can: (permission) => allows(value.user, permission) };
}

/**
 * The project of the current URL; outside /p/... (the admin screens), the last one opened,
 * so the sidebar's project links still lead somewhere sensible. `inUrl` tells which.
 */
export function useCurrentProject(): { project: ShellProject | null; inUrl: boolean } {
  const { projects, lastProject } = useShell();
  const pathname = usePathname();
  const fromPath = projectFromPath(pathname);
  const found = fromPath ? projects.find((p) => p.externalId === fromPath) : undefined;
  // A project in the URL the user cannot open (the page shows 404) is not offered as theirs.
  if (found) return { project: found, inUrl: true };
  return { project: pickProject(projects, lastProject), inUrl: false };
}
