"use client";

import * as React from "react";
import { PlusIcon } from "lucide-react";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { Button } from "@/components/ui/button";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./create-webhook-dialog-form.tsx). */
const load = () => import("./create-webhook-dialog-form");
const Form = React.lazy(load);

export function CreateWebhookDialog(props: { project: string }) {
  return (
    <LazyDialog
      load={load}
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Add webhook
        </Button>
      }
    >
      {(dialog) => <Form {...props} {...dialog} />}
    </LazyDialog>
  );
}
