"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm, type Control } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useReopenedForm } from "@/components/hooks/use-reopened-form";
import { toast } from "@/components/ui/toast";
import { userProjectsRequest, type UserProjectsRequest, type UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";
import { ProjectAccessFields, type ProjectAccessValues, type ProjectOption } from "./project-access-fields";

export type { ProjectOption } from "./project-access-fields";

/** No field of this form is ever named by the server: every refusal shows above the buttons. */
const NO_FIELDS = [] as const;

/** Grants all projects (present and future) or a chosen set. Takes effect at the user's next request. */
export function UserProjectsDialog({ user, projects, open, onOpenChange }: { user: UserView; projects: ProjectOption[]; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useReopenedForm<UserProjectsRequest>(open, {
    resolver: zodResolver(userProjectsRequest),
    defaultValues: { allProjects: user.allProjects, projectIds: user.projectIds },
  });

  const { dialog } = useFormDialogMutation(form, NO_FIELDS, {
    mutationFn: (values: UserProjectsRequest) => userMutations.setProjects(user.id, { allProjects: values.allProjects, projectIds: values.allProjects ? [] : values.projectIds }),
    onSuccess: async (_d, values) => {
      const n = values.projectIds?.length ?? 0;
      toast.success("Project access saved", {
        description: values.allProjects ? `${user.email} can open every project.` : `${user.email} can open ${n} ${n === 1 ? "project" : "projects"}.`,
      });
      onOpenChange(false);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
  const all = form.watch("allProjects");

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      {...dialog}
      title={<>Project access for {user.name ?? user.email}</>}
      description="Which projects this person can open. Their role still decides what they can do there."
      submitLabel="Save access"
    >
      <ProjectAccessFields control={form.control as unknown as Control<ProjectAccessValues>} projects={projects} allProjects={all} idPrefix={`access-${user.id}`} />
    </FormDialog>
  );
}
