"use client";

import * as React from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm, type Control } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { userProjectsRequest, type UserProjectsRequest, type UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import { describeError } from "@/components/common/error-advice";
import { FormDialog } from "@/components/common/form-dialog";
import { ProjectAccessFields, type ProjectAccessValues, type ProjectOption } from "./project-access-fields";

export type { ProjectOption } from "./project-access-fields";

/** Grants all projects (present and future) or a chosen set. Takes effect at the user's next request. */
export function UserProjectsDialog({ user, projects, open, onOpenChange }: { user: UserView; projects: ProjectOption[]; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const form = useForm<UserProjectsRequest>({
    resolver: zodResolver(userProjectsRequest),
    defaultValues: { allProjects: user.allProjects, projectIds: user.projectIds },
  });
  React.useEffect(() => {
    if (open) form.reset({ allProjects: user.allProjects, projectIds: user.projectIds });
  }, [open, user.allProjects, user.projectIds, form]);

  const mutation = useMutation({
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
  const formError = mutation.error ? describeError(mutation.error) : null; // no field of this form is ever named

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      onClosed={mutation.reset}
      title={<>Project access for {user.name ?? user.email}</>}
      description="Which projects this person can open. Their role still decides what they can do there."
      form={form}
      onSubmit={form.handleSubmit((v) => mutation.mutate(v))}
      pending={mutation.isPending}
      error={formError}
      submitLabel="Save access"
    >
      <ProjectAccessFields control={form.control as unknown as Control<ProjectAccessValues>} projects={projects} allProjects={all} idPrefix={`access-${user.id}`} />
    </FormDialog>
  );
}
