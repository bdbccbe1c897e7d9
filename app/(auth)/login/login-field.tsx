"use client";

import { useId } from "react";
import { fieldMessageText } from "@/components/ui/field-message";
import { cn } from "@/lib/utils";

/** Label, control and the message under it, wired for screen readers as the dashboard's form fields are. */
export function LoginField({ label, error, children }: { label: string; error?: string; children: (aria: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => React.ReactNode }) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className="grid gap-2">
      <label htmlFor={id} data-error={!!error} className={cn("flex items-center gap-2 text-sm leading-none font-medium select-none", "data-[error=true]:text-destructive dark:data-[error=true]:text-red-300")}>
        {label}
      </label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": error ? messageId : undefined })}
      {error && (
        <p id={messageId} role="alert" className="text-xs font-medium text-destructive dark:text-red-300">
          {fieldMessageText(error)}
        </p>
      )}
    </div>
  );
}
