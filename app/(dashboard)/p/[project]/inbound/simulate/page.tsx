import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { PageHeader } from "@/components/common/page-header";
import { SimulateForm } from "./simulate-form";

export const metadata: Metadata = { title: "Simulate inbound mail" };

export default async function SimulateInboundPage({ params }: { params: Promise<{ project: string }> }) {
  const { project } = await guardPage("inbound:simulate", params);
  return (
    <div className="max-w-2xl space-y-5">
      <PageHeader
        title="Simulate inbound mail"
        description="Have the service receive a message as if someone had written to one of this project's addresses, then rehearse the reply. Nothing leaves the service."
      />
      <SimulateForm project={project.externalId} />
    </div>
  );
}
