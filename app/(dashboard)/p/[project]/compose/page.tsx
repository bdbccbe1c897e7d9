import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { can } from "@/lib/permissions";
import { composeOptions, composePrefill } from "@/lib/server/compose/data";
import { ComposeScreen } from "./compose-screen";

export const metadata: Metadata = { title: "Compose" };

export default async function ComposePage({ params, searchParams }: { params: Promise<{ project: string }>; searchParams: Promise<{ from?: string }> }) {
  const { user, project } = await guardPage("messages:send", params);
  const { from } = await searchParams;
  const [options, prefill] = await Promise.all([
    composeOptions(project),
    typeof from === "string" && from ? composePrefill(project, from) : Promise.resolve(null),
  ]);
  return (
    <ComposeScreen
      project={project.externalId}
      options={options}
      prefill={prefill}
      prefillMissing={Boolean(from) && !prefill}
      canBatch={can(user.role, "batches:send")}
    />
  );
}
