import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isAppError } from "@/lib/errors";
import { guardPage } from "@/lib/server/guard";
import { getRecipient } from "@/lib/server/messages/recipient";
import { emailParam } from "@/lib/schemas/params";
import { RecipientScreen } from "./recipient-screen";

export const metadata: Metadata = { title: "Recipient" };

/** Everything known about one address in this project. */
export default async function RecipientPage({ params, searchParams }: { params: Promise<{ project: string; email: string }>; searchParams: Promise<{ cursor?: string }> }) {
  const { project } = await guardPage("messages:read", params);
  const { email } = await params;
  const { cursor } = await searchParams;
  try {
    const view = await getRecipient(project, emailParam.parse(email), { cursor: typeof cursor === "string" ? cursor : undefined });
    return <RecipientScreen project={project.externalId} view={view} cursor={typeof cursor === "string" ? cursor : null} />;
  } catch (e) {
    if (isAppError(e) && e.status === 400) notFound();
    if (e instanceof Error && e.name === "ZodError") notFound();
    throw e;
  }
}
