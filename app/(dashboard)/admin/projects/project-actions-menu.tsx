"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PencilIcon, Trash2Icon } from "lucide-react";
import { toast } from "@/components/ui/toast";
import type { ProjectView } from "@/lib/schemas/projects";
import { projectKeys, projectMutations } from "@/lib/queries/projects";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { ConfirmDialog } from "@/components/common/confirm-dialog";
import { RenameProjectDialog } from "./rename-project-dialog";

/** A project's row menu with its rename and remove dialogs, loaded on first use (./project-actions.tsx). */
export function ProjectActionsMenu({ project, open, onOpenChange, trigger }: { project: ProjectView } & LazyDialogProps) {
  const [dialog, setDialog] = React.useState<"rename" | "remove" | null>(null);
  const router = useRouter();
  const queryClient = useQueryClient();

  const remove = useMutation({
    mutationFn: () => projectMutations.remove(project.id),
    onSuccess: async () => {
      toast.success("Project removed", { description: `${project.name} is no longer in the dashboard.` });
      await queryClient.invalidateQueries({ queryKey: projectKeys.all });
      router.refresh();
    },
  });

  return (
    <>
      <DropdownMenu open={open} onOpenChange={onOpenChange}>
        <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setDialog("rename")}>
            <PencilIcon aria-hidden="true" />
            Rename
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive" onSelect={() => setDialog("remove")}>
            <Trash2Icon aria-hidden="true" />
            Remove…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <RenameProjectDialog project={project} open={dialog === "rename"} onOpenChange={(o) => setDialog(o ? "rename" : null)} />
      <ConfirmDialog
        open={dialog === "remove"}
        onOpenChange={(o) => setDialog(o ? "remove" : null)}
        title={`Remove project “${project.name}”?`}
        description={
          <>
            <p>
              The dashboard forgets <span className="font-mono">{project.externalId}</span>: its screens close and every access granted to it is
              withdrawn. Nothing is deleted at the email service, and you can register it again later.
            </p>
          </>
        }
        confirmLabel="Remove project"
        onConfirm={() => remove.mutateAsync()}
      />
    </>
  );
}
