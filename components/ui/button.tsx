import * as React from "react";
import { Slot } from "@/components/ui/slot";
import type { VariantProps } from "class-variance-authority";
import { cn } from "@/lib/utils";
import { buttonVariants } from "@/components/ui/button-variants";

export { buttonVariants };

export type ButtonProps = React.ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Render the child element (a link, usually) with button styles. */
    asChild?: boolean;
    /** Shows a spinner and disables the button, so a form cannot be sent twice. */
    pending?: boolean;
  };

export function Button({ className, variant, size, asChild = false, pending = false, disabled, children, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return (
    <Comp
      data-slot="button"
      className={cn(buttonVariants({ variant, size, className }))}
      disabled={asChild ? undefined : disabled || pending}
      aria-busy={pending || undefined}
      {...props}
    >
      {asChild ? (
        children
      ) : (
        <>
          {pending && <Spinner />}
          {children}
        </>
      )}
    </Comp>
  );
}

/**
 * Lucide's loader-circle drawn inline: the sign-in page's only icon, so that page need not
 * load the icon library for it.
 */
function Spinner() {
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className="animate-spin" aria-hidden="true">
      <path d="M21 12a9 9 0 1 1-6.219-8.56" />
    </svg>
  );
}
