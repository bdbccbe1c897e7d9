import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listApiKeys } from "@/lib/server/api-keys";
import { ApiKeysScreen } from "./api-keys-screen";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await guardPage("api_keys:write", params);
  return <ApiKeysScreen project={project.externalId} projectName={project.name} initial={await listApiKeys(project)} />;
}
