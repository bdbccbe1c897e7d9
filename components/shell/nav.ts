import {
  BanIcon,
  BellIcon,
  CalendarClockIcon,
  ContactIcon,
  FileTextIcon,
  GlobeIcon,
  KeyRoundIcon,
  LayersIcon,
  LayoutDashboardIcon,
  MailIcon,
  PenSquareIcon,
  ScrollTextIcon,
  FolderKanbanIcon,
  GaugeIcon,
  TagsIcon,
  UsersIcon,
  WebhookIcon,
  type LucideIcon,
} from "lucide-react";
import * as nav from "@/lib/nav";
import type { AccessSubject } from "@/lib/permissions";

/**
 * The screens of lib/nav.ts with their icons, for the sidebar, the command palette and the
 * project switcher; everything else about the screens (permissions, paths) is lib/nav.ts's.
 */
export * from "@/lib/nav";
export { looksLikeMessageId } from "@/lib/messages/message-id";

const ICONS: Record<string, LucideIcon> = {
  overview: LayoutDashboardIcon,
  deliverability: GaugeIcon,
  tags: TagsIcon,
  alerts: BellIcon,
  messages: MailIcon,
  compose: PenSquareIcon,
  batches: LayersIcon,
  scheduled: CalendarClockIcon,
  templates: FileTextIcon,
  contacts: ContactIcon,
  suppressions: BanIcon,
  domains: GlobeIcon,
  "api-keys": KeyRoundIcon,
  webhooks: WebhookIcon,
  users: UsersIcon,
  projects: FolderKanbanIcon,
  audit: ScrollTextIcon,
};

export type ProjectScreen = nav.ProjectScreen & { icon: LucideIcon };
export type AdminScreen = nav.AdminScreen & { icon: LucideIcon };

const withIcon = <S extends { key: string }>(screen: S): S & { icon: LucideIcon } => ({ ...screen, icon: ICONS[screen.key] ?? LayoutDashboardIcon });

export const PROJECT_SCREENS: ProjectScreen[] = nav.PROJECT_SCREENS.map(withIcon);
export const ADMIN_SCREENS: AdminScreen[] = nav.ADMIN_SCREENS.map(withIcon);

export const visibleProjectScreens = (user: AccessSubject): ProjectScreen[] => nav.visibleProjectScreens(user).map(withIcon);
/** Admin screens need every project too (lib/permissions.ts ACCOUNT_PERMISSIONS). */
export const visibleAdminScreens = (user: AccessSubject): AdminScreen[] => nav.visibleAdminScreens(user).map(withIcon);
