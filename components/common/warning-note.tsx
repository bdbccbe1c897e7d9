import * as React from "react";
import { AlertTriangleIcon } from "lucide-react";

/** A warning about what was entered in a form (a risky choice, an unreachable address), shown beside the field. */
export function WarningNote({ children, ...props }: React.ComponentProps<"p">) {
  return (
    <p role="note" className="flex items-start gap-2 rounded-md bg-warning px-3 py-2 text-sm text-warning-foreground" {...props}>
      <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {children}
    </p>
  );
}
