"use client";

import * as React from "react";
import { UserPlusIcon } from "lucide-react";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { Button } from "@/components/ui/button";
import type { ProjectOption } from "./project-access-fields";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-user-dialog-form.tsx). */
const load = () => import("./create-user-dialog-form");
const Form = React.lazy(load);

export function CreateUserDialog(props: { projects: ProjectOption[] }) {
  return (
    <LazyDialog
      load={load}
      trigger={
        <Button>
          <UserPlusIcon aria-hidden="true" />
          Create user
        </Button>
      }
    >
      {(dialog) => <Form {...props} {...dialog} />}
    </LazyDialog>
  );
}
