import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { guardPage } from "@/lib/server/gate/guard";
import { getRecipient } from "@/lib/server/messages/recipient";
import { emailParam } from "@/lib/schemas/params";
import { RecipientScreen } from "./recipient-screen";

export const metadata: Metadata = { title: "Recipient" };

/** Everything known about one address in this project. */
export default async function RecipientPage({ params, searchParams }: { params: Promise<{ project: string; email: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const { project } = await guardPage("messages:read", params);
  const { email } = await params;
  const { cursor } = await searchParams;
  // Reads the dashboard's own index (the suppression it asks the service for is tolerated inside): a bad address is a 404.
  const address = emailParam.safeParse(email);
  if (!address.success) notFound();
  const view = await getRecipient(project, address.data, { cursor: typeof cursor === "string" ? cursor : undefined }).catch((e: unknown) => {
    if (isAppError(e) && e.status === 400) notFound();
    if (e instanceof Error && e.name === "ZodError") notFound();
    throw e;
  });
  return <RecipientScreen project={project.externalId} view={view} cursor={typeof cursor === "string" ? cursor : null} />;
}
