import { cn } from "@/lib/utils";

/**
 * A form-level error (the server refused for a reason no single field owns). A file of its
 * own: confirm dialogs and the shell use it without loading react-hook-form (form.tsx).
 */
export function FormError({ message, correlationId, className }: { message?: string | null; correlationId?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={cn("rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive dark:text-red-300", className)}>
      {message}
      {correlationId && <span className="mt-1 block font-mono text-xs">Reference: {correlationId}</span>}
    </div>
  );
}
