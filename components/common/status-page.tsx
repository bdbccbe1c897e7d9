import * as React from "react";
import { Button } from "@/components/ui/button";
import { FileQuestionStaticIcon, ShieldXStaticIcon } from "@/components/common/static-icons";

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

/** A 403's and a 404's icon and general wording, wherever the page stands. */
const HTTP_STATUS = {
  "403": {
    icon: ShieldXStaticIcon,
    title: "You do not have access to this",
    description: "Your role or your project access does not include this page. An administrator can change your role or grant you the project.",
  },
  "404": {
    icon: FileQuestionStaticIcon,
    title: "This page does not exist",
    description: "The link may be mistyped, or what it pointed to was removed. If someone sent you this link, check it with them.",
  },
} as const;

export type HttpStatusCode = keyof typeof HTTP_STATUS;

/** StatusPage's icon, code and words for a 403 or 404; a screen may word it for its place. */
export function httpStatus(code: HttpStatusCode, wording?: { title: string; description: string }) {
  return { code, ...HTTP_STATUS[code], ...wording };
}

/** A 403 or 404 outside the dashboard's shell (signed out, or no layout around it). */
export function StandaloneStatusPage({ code }: { code: HttpStatusCode }) {
  return (
    <StatusPage {...httpStatus(code)}>
      {/* A plain link: the router's link code would load with every signed-out page for this one. */}
      <Button asChild>
        <a href="/">Go to the dashboard</a>
      </Button>
    </StatusPage>
  );
}
