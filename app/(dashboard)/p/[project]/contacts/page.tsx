import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { searchContacts } from "@/lib/server/contacts/manage";
import { ContactsScreen } from "./contacts-screen";

export const metadata: Metadata = { title: "Contacts" };

export default async function ContactsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<{ q?: string }> }) {
  const { user, project } = await guardPage("contacts:read", params);
  const { q } = await searchParams;
  const initial = await searchContacts(project, typeof q === "string" ? q : "", 1);
  return <ContactsScreen project={project.externalId} initial={initial} canWrite={can(user.role, "contacts:write")} />;
}
