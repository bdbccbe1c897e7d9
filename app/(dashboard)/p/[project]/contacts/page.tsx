import type { Metadata } from "next";
import { guardPage } from "@/lib/server/guard";
import { can } from "@/lib/permissions";
import { decodeParam } from "@/components/shell/nav";
import { searchContacts } from "@/lib/server/contacts/contacts";
import { ContactsScreen } from "./contacts-screen";

export const metadata: Metadata = { title: "Contacts" };

export default async function ContactsPage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<{ q?: string }> }) {
  const [{ project: externalId }, { q }] = await Promise.all([params, searchParams]);
  const { user, project } = await guardPage("contacts:read", decodeParam(externalId));
  const initial = await searchContacts(project!, typeof q === "string" ? q : "", 1);
  return <ContactsScreen project={project!.externalId} initial={initial} canWrite={can(user.role, "contacts:write")} />;
}
