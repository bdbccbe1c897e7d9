import type { UserView } from "@/lib/schemas/users";
import type { ProjectOption } from "./user-projects-dialog";

/** "All projects", "None", or the granted names (a few, then "+3 more" with the rest on hover). */
export function ProjectAccessSummary({ user, projects }: { user: Pick<UserView, "allProjects" | "projectIds">; projects: ProjectOption[] }) {
  if (user.allProjects) return <span>All projects</span>;
  const names = user.projectIds.map((id) => projects.find((p) => p.id === id)?.name).filter((n): n is string => Boolean(n));
  if (names.length === 0) return <span className="text-muted-foreground">None</span>;
  const shown = names.slice(0, 2).join(", ");
  const rest = names.length - 2;
  return (
    <span className="block truncate" title={names.join(", ")}>
      {shown}
      {rest > 0 && <span className="text-muted-foreground"> +{rest} more</span>}
    </span>
  );
}
