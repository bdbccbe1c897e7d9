"use client";

import * as React from "react";
import { UserPlusIcon } from "lucide-react";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { Button } from "@/components/ui/button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-contact-dialog-form.tsx). */
const load = () => import("./create-contact-dialog-form");
const Form = React.lazy(load);

export function CreateContactDialog(props: { project: string }) {
  return (
    <LazyDialog
      load={load}
      trigger={
        <Button>
          <UserPlusIcon aria-hidden="true" />
          Create contact
        </Button>
      }
    >
      {(dialog) => <Form {...props} {...dialog} />}
    </LazyDialog>
  );
}
