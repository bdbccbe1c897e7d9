"use client";

import * as React from "react";
import type { LucideIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-error";

/**
 * The end of a form on a page (a dialog has <FormDialog>'s footer): the error the server gave,
 * with its correlation id, then the submit button (with its `icon`), which shows it is working, and any other
 * `children` actions beside it.
 */
export function FormSubmitRow({
  error,
  pending,
  submitLabel,
  icon: Icon,
  children,
}: {
  error: { message?: string | null; correlationId?: string | null } | null;
  pending: boolean;
  submitLabel: React.ReactNode;
  icon?: LucideIcon;
  children?: React.ReactNode;
}) {
  return (
    <>
      <FormError message={error?.message} correlationId={error?.correlationId} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" pending={pending}>
          {Icon && <Icon aria-hidden="true" />}
          {submitLabel}
        </Button>
        {children}
      </div>
    </>
  );
}
