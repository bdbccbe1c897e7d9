"use client";

import * as React from "react";
import { cn } from "@/lib/utils";
import { EMAIL_SCHEMES, type EmailScheme } from "./email-scheme";

const LABELS: Record<EmailScheme, { name: string; hint?: string }> = {
  light: { name: "Light" },
  dark: { name: "Dark" },
  inverted: { name: "Dark, inverted", hint: "approximation, like Gmail apps" },
  partial: { name: "Dark, partial", hint: "approximation, like Outlook.com" },
};

/**
 * Light / Dark for the email preview: radio buttons (arrow keys move between them, the
 * choice is read out), drawn as one segmented control. `darkStyles`: what the frame found in
 * the email, for the note on what the approximations do (null until it has read the html).
 */
export function SchemeSwitch({ value, onChange, darkStyles, className }: { value: EmailScheme; onChange: (scheme: EmailScheme) => void; darkStyles: boolean | null; className?: string }) {
  const name = React.useId();
  const approximation = value === "inverted" || value === "partial";
  return (
    <fieldset className={cn("min-w-0 space-y-1", className)} data-testid="scheme-switch">
      <legend className="mb-1 text-xs font-medium text-muted-foreground">Preview as a mail client in</legend>
      <div className="flex flex-wrap gap-1">
        {EMAIL_SCHEMES.map((scheme) => (
          <label
            key={scheme}
            className="cursor-pointer rounded-md border px-2.5 py-1 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-primary-foreground has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-offset-2"
          >
            <input type="radio" className="sr-only" name={name} value={scheme} checked={value === scheme} onChange={() => onChange(scheme)} />
            {LABELS[scheme].name}
            {/* A space of its own, not a margin: the radio's accessible name reads "Dark, inverted (approximation, …)". */}
            {LABELS[scheme].hint && <>{" "}<span className="text-xs">({LABELS[scheme].hint})</span></>}
          </label>
        ))}
      </div>
      {approximation && darkStyles !== null && (
        <p className="text-xs text-muted-foreground" role="status" data-testid="scheme-note">
          {darkStyles
            ? "This email has dark styles of its own, so it is shown with them: clients invert or recolour only emails without dark styles."
            : value === "inverted"
              ? "An approximation: without dark styles, Gmail's apps invert the email's colours (pictures keep theirs)."
              : "An approximation: without dark styles, Outlook.com darkens light backgrounds and lightens dark text, and leaves other colours."}
        </p>
      )}
    </fieldset>
  );
}
