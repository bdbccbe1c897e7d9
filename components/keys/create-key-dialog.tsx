"use client";

import * as React from "react";
import { PlusIcon } from "lucide-react";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { Button } from "@/components/ui/button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-key-dialog-form.tsx). */
const load = () => import("./create-key-dialog-form");
const Form = React.lazy(load);

export function CreateKeyDialog(props: { project: string; projectName: string }) {
  return (
    <LazyDialog
      load={load}
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Create API key
        </Button>
      }
    >
      {(dialog) => <Form {...props} {...dialog} />}
    </LazyDialog>
  );
}
