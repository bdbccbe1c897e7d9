"use client";

import * as React from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useForm, type Control } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "@/components/ui/toast";
import { ROLE_LABELS, ROLES } from "@/lib/permissions";
import { createUserRequest, type CreateUserRequest, type UserView } from "@/lib/schemas/users";
import { userKeys, userMutations } from "@/lib/queries/users";
import { TextField } from "@/components/common/text-field";
import { SelectField } from "@/components/common/select-field";
import { SecretReveal } from "@/components/common/secret-reveal";
import { ROLE_SUMMARIES } from "./role-summaries";
import { ProjectAccessFields, type ProjectAccessValues, type ProjectOption } from "./project-access-fields";
import type { LazyDialogProps } from "@/components/common/lazy-dialog";
import { FormDialog, useFormDialogMutation } from "@/components/common/form-dialog";

const FIELDS = ["email", "name", "role", "allProjects", "projectIds"] as const;

/**
 * New account: email, name, role and the projects it may open (none unless chosen). The
 * server generates the password and it is shown once.
 */
export default function CreateUserDialogForm({ projects, ...lazy }: { projects: ProjectOption[] } & LazyDialogProps) {
  const [created, setCreated] = React.useState<{ user: UserView; password: string } | null>(null);
  const queryClient = useQueryClient();
  const form = useForm<CreateUserRequest>({
    resolver: zodResolver(createUserRequest),
    defaultValues: { email: "", name: "", role: "support", allProjects: false, projectIds: [] },
    mode: "onTouched",
  });
  const allProjects = form.watch("allProjects") ?? false;
  const role = form.watch("role");

  const { dialog } = useFormDialogMutation(form, FIELDS, {
    dialogProps: lazy,
    mutationFn: (values: CreateUserRequest) =>
      userMutations.create({
        email: values.email,
        name: values.name || null,
        role: values.role,
        allProjects: values.allProjects ?? false,
        projectIds: values.allProjects ? [] : (values.projectIds ?? []),
      }),
    onSuccess: async (result) => {
      toast.success("User created", { description: `${result.user.email} can sign in as ${ROLE_LABELS[result.user.role]}.` });
      if (result.password) setCreated({ user: result.user, password: result.password });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });

  return (
    <>
      <FormDialog
        {...dialog}
        className="max-h-[90vh] overflow-y-auto"
        title="Create a user"
        description="A password is generated and shown to you once, for you to pass on."
        submitLabel="Create user"
      >
        <TextField control={form.control} name="email" label="Email" type="email" placeholder="ada@example.com" />
        <TextField control={form.control} name="name" label="Name" placeholder="Ada Lovelace" description="Optional." />
        <SelectField control={form.control} name="role" label="Role" options={ROLES} optionLabel={(r) => ROLE_LABELS[r]} description={ROLE_SUMMARIES[role]} />
        <ProjectAccessFields control={form.control as unknown as Control<ProjectAccessValues>} projects={projects} allProjects={allProjects} idPrefix="create" />
      </FormDialog>
      <SecretReveal
        secret={created?.password ?? null}
        label="password"
        title={`Password for ${created?.user.email ?? ""}`}
        description="Give this password to the new user. They should change it after signing in."
        onClose={() => setCreated(null)}
      />
    </>
  );
}
