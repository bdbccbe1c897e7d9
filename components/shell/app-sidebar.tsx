"use client";

import { Link } from "@/components/common/link";
import { usePathname } from "next/navigation";
import { MailboxIcon, type LucideIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { useCurrentProject, useShell } from "@/components/shell/shell-context";
import { isActive, projectHref, visibleAdminScreens, visibleProjectScreens } from "@/components/shell/nav";

type NavLinkProps = { href: string; label: string; icon: LucideIcon; active: boolean; roomy?: boolean; onNavigate?: () => void };

function NavLink({ href, label, icon: Icon, active, roomy, onNavigate }: NavLinkProps) {
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      onClick={onNavigate}
      className={cn(
        "flex items-center gap-2.5 rounded-md px-2.5 text-sm transition-colors",
        roomy ? "min-h-11 py-2" : "py-1.5",
        "text-sidebar-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground",
        active && "bg-sidebar-accent font-medium text-sidebar-accent-foreground",
      )}
    >
      <Icon className={cn("size-4 shrink-0", active ? "text-primary" : "opacity-70")} aria-hidden="true" />
      <span className="truncate">{label}</span>
    </Link>
  );
}

/**
 * Screen groups for the current project, then the admin screens the role may use: the
 * sidebar's content, and the phone's navigation drawer's (`roomy`: rows a thumb can hit,
 * 44 px; `onNavigate`: choosing a link closes the drawer, the current screen's link too).
 */
export function MainNav({ className, roomy, onNavigate }: { className?: string; roomy?: boolean; onNavigate?: () => void }) {
  const pathname = usePathname();
  const { user } = useShell();
  const { project, inUrl } = useCurrentProject();
  const screens = visibleProjectScreens(user);
  const admin = visibleAdminScreens(user);
  const link = { roomy, onNavigate };

  return (
    <nav aria-label="Main" className={cn("space-y-5", className)}>
      {project ? (
        <div>
          <h2 className="mb-1 truncate px-2.5 text-xs font-medium text-muted-foreground" title={project.name}>
            {inUrl ? project.name : `Project: ${project.name}`}
          </h2>
          <ul className="space-y-0.5">
            {screens.map((s) => {
              const href = projectHref(project.externalId, s.segment);
              return (
                <li key={s.key}>
                  <NavLink href={href} label={s.label} icon={s.icon} active={inUrl && isActive(pathname, href, s.segment === "")} {...link} />
                </li>
              );
            })}
          </ul>
        </div>
      ) : (
        <p className="px-2.5 text-xs text-muted-foreground">No project yet. {admin.some((a) => a.key === "projects") ? "Register one under Projects." : "Ask an administrator for access to a project."}</p>
      )}
      {admin.length > 0 && (
        <div>
          <h2 className="mb-1 px-2.5 text-xs font-medium text-muted-foreground">Admin</h2>
          <ul className="space-y-0.5">
            {admin.map((s) => (
              <li key={s.key}>
                <NavLink href={s.href} label={s.label} icon={s.icon} active={isActive(pathname, s.href)} {...link} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </nav>
  );
}

/** The product's name, linking home: the head of the sidebar and of the drawer. */
export function Brand({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Link href="/" onClick={onNavigate} className="flex items-center gap-2 rounded-md font-semibold tracking-tight">
      <span className="flex size-7 items-center justify-center rounded-md bg-primary text-primary-foreground">
        <MailboxIcon className="size-4" aria-hidden="true" />
      </span>
      Mailroom
    </Link>
  );
}

/** The navigation beside every screen from the `md` width (768 px) up; below it the top bar's menu button opens the same links in a drawer (mobile-nav.tsx). */
export function AppSidebar() {
  return (
    <aside className="hidden h-full w-56 shrink-0 flex-col border-r border-sidebar-border bg-sidebar md:flex">
      <div className="flex h-14 items-center gap-2 border-b border-sidebar-border px-4">
        <Brand />
      </div>
      <MainNav className="flex-1 overflow-y-auto px-2 py-4" />
    </aside>
  );
}
