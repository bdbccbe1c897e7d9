import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { isAppError } from "@/lib/errors";
import { decodeParam } from "@/lib/http/decode-param";
import { lookupContact } from "@/lib/server/contacts/manage";
import { ContactScreen } from "./contact-screen";

export const metadata: Metadata = { title: "Contact" };

export default async function ContactPage({ params }: { params: Promise<{ project: string; id: string }> }) {
  const { user, project } = await guardPage("contacts:read", params);
  const { id } = await params;
  const contact = await lookupContact(project, { id: decodeParam(id) }).catch((e) => {
    if (isAppError(e) && (e.status === 404 || e.status === 400)) notFound();
    throw e;
  });
  return <ContactScreen project={project.externalId} initial={contact} canWrite={can(user.role, "contacts:write")} />;
}
