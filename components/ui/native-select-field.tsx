import * as React from "react";
import { cn } from "@/lib/utils";

/**
 * A labelled native <select> for a short, fixed list (no search, no portal, nothing to load),
 * outside a react-hook-form form (inside one: components/common/select-field.tsx): the label
 * above it, the box styled as the other inputs. `placeholder` is a first, empty choice (its
 * value ""); `children` go under the box (an error line).
 */
export function NativeSelectField({
  id,
  label,
  choices,
  placeholder,
  fill = true,
  className,
  children,
  ...select
}: {
  id: string;
  label: React.ReactNode;
  choices: readonly { value: string; label: React.ReactNode }[];
  placeholder?: React.ReactNode;
  /** The box takes the width it is given (false: as wide as its longest choice). */
  fill?: boolean;
  className?: string;
  children?: React.ReactNode;
} & Omit<React.ComponentProps<"select">, "id" | "children" | "className">) {
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={cn("flex h-9 rounded-md border bg-background px-2 text-sm focus-visible:outline-2 focus-visible:outline-ring", fill && "w-full")} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      {children}
    </div>
  );
}
