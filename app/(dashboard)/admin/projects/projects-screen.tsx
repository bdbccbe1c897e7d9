"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/common/link";
import { FolderKanbanIcon } from "lucide-react";
import type { ProjectView } from "@/lib/schemas/projects";
import { projectsQuery } from "@/lib/queries/projects";
import { PageHeader } from "@/components/common/page-header";
import { EmptyState } from "@/components/common/empty-state";
import { ErrorState } from "@/components/common/error-state";
import { RelativeTime } from "@/components/common/relative-time";
import { CopyableText } from "@/components/common/copy-button";
import { ListTable } from "@/components/common/list-table";
import { TableCell, TableRow } from "@/components/ui/table";
import { projectHref } from "@/lib/nav";
import { RegisterProjectDialog } from "./register-project-dialog";
import { ProjectActions } from "./project-actions";

/** Registered projects: the service cannot list them, so admins add each one here. */
export function ProjectsScreen({ initialProjects }: { initialProjects: ProjectView[] }) {
  const { data: projects = [], error, refetch, isRefetching } = useQuery({ ...projectsQuery(), initialData: initialProjects });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Projects"
        description="The email service cannot list its projects, so register each one here by its id at the service. Users then get access to all projects or to chosen ones."
        actions={<RegisterProjectDialog />}
      />
      {error && <ErrorState compact title="The list could not be refreshed" error={error} onRetry={() => refetch()} retrying={isRefetching} />}
      {projects.length === 0 ? (
        <EmptyState
          icon={FolderKanbanIcon}
          title="No project registered yet"
          description="Registered projects appear here, each with its screens for messages, templates, domains, keys and webhooks. Register the first one with its id at the email service."
          action={<RegisterProjectDialog />}
        />
      ) : (
        <ListTable label="Registered projects" columns={["Name", "Service project id", "Registered", { label: "Actions", className: "w-12", hidden: true }]}>
          {projects.map((p) => (
            <TableRow key={p.id}>
              <TableCell className="font-medium">
                <Link href={projectHref(p.externalId)} className="rounded-sm hover:underline">
                  {p.name}
                </Link>
              </TableCell>
              <TableCell>
                <CopyableText value={p.externalId} label="project id" />
              </TableCell>
              <TableCell>
                <RelativeTime value={p.createdAt} />
              </TableCell>
              <TableCell className="text-right">
                <ProjectActions project={p} />
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      )}
    </div>
  );
}
