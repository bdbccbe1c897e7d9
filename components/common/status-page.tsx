import * as React from "react";

/** A whole-page message (404, 403, no project yet), centred, with the way forward. */
export function StatusPage({
  icon: Icon,
  code,
  title,
  description,
  children,
  inShell = false,
}: {
  /** A lucide icon, or one of components/common/static-icons.tsx where the page should load no script for it. */
  icon: React.ComponentType<{ className?: string; "aria-hidden"?: boolean | "true" | "false" }>;
  code?: string;
  title: string;
  description: React.ReactNode;
  children?: React.ReactNode;
  /** Inside the dashboard shell, which already has its <main>. */
  inShell?: boolean;
}) {
  const Wrapper = inShell ? "div" : "main";
  return (
    <Wrapper className={inShell ? "flex min-h-[60vh] items-center justify-center py-12" : "flex min-h-dvh items-center justify-center px-6 py-12"}>
      <div className="flex max-w-md flex-col items-center gap-4 text-center">
        <div className="flex size-12 items-center justify-center rounded-full bg-muted">
          <Icon className="size-6 text-muted-foreground" aria-hidden="true" />
        </div>
        {code && <p className="font-mono text-sm text-muted-foreground">{code}</p>}
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <p className="text-sm text-muted-foreground">{description}</p>
        {children && <div className="mt-2 flex flex-wrap justify-center gap-2">{children}</div>}
      </div>
    </Wrapper>
  );
}
