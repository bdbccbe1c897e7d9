"use client";

import * as React from "react";
import { PlusIcon } from "lucide-react";
import { LazyDialog } from "@/components/common/lazy-dialog";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { useShell } from "@/components/shell/shell-context";

/** The form and its libraries (dialog, react-hook-form, zod) load when the button is first used (./add-suppression-dialog-form.tsx). */
const load = () => import("./add-suppression-dialog-form");
const Form = React.lazy(load);

export function AddSuppressionDialog(props: { project: string }) {
  const { can } = useShell();
  if (!can("suppressions:write")) {
    return (
      <Tooltip>
        <TooltipTrigger asChild>
          <span tabIndex={0}>
            <Button disabled>
              <PlusIcon aria-hidden="true" />
              Add suppression
            </Button>
          </span>
        </TooltipTrigger>
        <TooltipContent>Only support staff and admins can add suppressions.</TooltipContent>
      </Tooltip>
    );
  }
  return (
    <LazyDialog
      load={load}
      trigger={
        <Button>
          <PlusIcon aria-hidden="true" />
          Add suppression
        </Button>
      }
    >
      {(dialog) => <Form {...props} {...dialog} />}
    </LazyDialog>
  );
}
