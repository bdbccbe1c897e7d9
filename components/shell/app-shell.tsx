"use client";

import * as React from "react";
import { AppSidebar } from "@/components/shell/app-sidebar";
import { TopBar } from "@/components/shell/top-bar";
import { CommandPalette } from "@/components/shell/command-palette";
import { ShellProvider, type ShellProject, type ShellUser } from "@/components/shell/shell-context";
import { DashboardProviders } from "@/components/shell/dashboard-providers";
import { ServiceBanner } from "@/components/common/service-banner";
import type { TakenHealth } from "@/lib/schemas/health";

/**
 * The frame of every signed-in screen: sidebar, top bar, the service banner and the page.
 * Only the page area scrolls, so the navigation stays put; it is positioned, so what a screen
 * places absolutely (visually hidden inputs, say) stays inside it rather than lengthening the
 * document, which then scrolled the whole frame away on a phone. Its providers (queries, tooltips,
 * toasts) are the signed-in screens' own: the sign-in page does without them.
 */
export function AppShell({
  user,
  projects,
  lastProject,
  health,
  children,
}: {
  user: ShellUser;
  projects: ShellProject[];
  lastProject: string | null;
  health: TakenHealth | null;
  children: React.ReactNode;
}) {
  return (
    <DashboardProviders>
      <ShellProvider value={{ user, projects, lastProject }}>
        <CommandPalette>
          <a href="#main" className="sr-only z-50 rounded-md bg-background px-3 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
            Skip to content
          </a>
          <div className="flex h-dvh overflow-hidden">
            <AppSidebar />
            <div className="flex min-w-0 flex-1 flex-col">
              <TopBar />
              <ServiceBanner initial={health} />
              <main id="main" tabIndex={-1} className="relative min-w-0 flex-1 overflow-y-auto focus:outline-none">
                <div className="mx-auto w-full max-w-7xl px-4 py-4 md:px-6 md:py-6">{children}</div>
              </main>
            </div>
          </div>
        </CommandPalette>
      </ShellProvider>
    </DashboardProviders>
  );
}
