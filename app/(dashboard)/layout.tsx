import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentUser, PATHNAME_HEADER } from "@/lib/server/gate/guard";
import { listProjectsForUser } from "@/lib/server/projects";
import { serviceHealthForPage } from "@/lib/server/service/health";
import { AppShell } from "@/components/shell/app-shell";
import { LAST_PROJECT_COOKIE } from "@/components/shell/last-project";

/**
 * The signed-in frame. It only loads what the shell shows (who, which projects); each page
 * still runs its own guard, since a layout is not re-run on every navigation.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await currentUser();
  if (!user) {
    // A session that ended (disabled, password reset): back here after signing in again.
    const path = (await headers()).get(PATHNAME_HEADER) || "/";
    redirect(`/login?callbackUrl=${encodeURIComponent(path)}`);
  }
  const [projects, health] = await Promise.all([listProjectsForUser(user), serviceHealthForPage()]);
  const lastProject = (await cookies()).get(LAST_PROJECT_COOKIE)?.value ?? null;
  return (
    <AppShell
      user={{ id: user.id, email: user.email, name: user.name, role: user.role, allProjects: user.allProjects }}
      projects={projects.map((p) => ({ id: p.id, externalId: p.externalId, name: p.name }))}
      lastProject={lastProject}
      health={health}
    >
      {children}
    </AppShell>
  );
}
