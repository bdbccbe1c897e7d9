import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { FolderKanbanIcon } from "lucide-react";
import { allows } from "@/lib/permissions";
import { currentUser } from "@/lib/server/gate/guard";
import { listProjectsForUser } from "@/lib/server/projects";
import { StatusPage } from "@/components/common/status-page";
import { LAST_PROJECT_COOKIE, pickProject } from "@/components/shell/last-project";
import { projectHref } from "@/lib/nav";
import { SignOutButton } from "@/components/shell/sign-out-button";

/**
 * "/" opens the project the user was last in (or their first one). An admin with no project
 * yet goes to register one; anyone else is told whom to ask.
 */
export default async function Home() {
  const user = await currentUser();
  if (!user) redirect("/login");
  const projects = await listProjectsForUser(user);
  const project = pickProject(projects, (await cookies()).get(LAST_PROJECT_COOKIE)?.value);
  if (project) redirect(projectHref(project.externalId));
  if (allows(user, "projects:manage")) redirect("/admin/projects");
  return (
    <StatusPage
      icon={FolderKanbanIcon}
      title="No project to show yet"
      description="Your account has no access to any project. Ask an administrator to grant you one, then sign in again."
    >
      <SignOutButton />
    </StatusPage>
  );
}
