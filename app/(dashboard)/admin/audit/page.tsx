import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { listAudit } from "@/lib/server/audit";
import { listUsers } from "@/lib/server/users";
import { listAllProjects } from "@/lib/server/projects";
import { firstLoad } from "@/components/common/first-load";
import { AuditScreen } from "./audit-screen";
import { parseAuditParams } from "./audit-params";

export const metadata: Metadata = { title: "Audit log" };

/** Every filter and the page cursor come from the URL, so a pasted link shows the same rows. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await guardPage("audit:read");
  const { filters, query, invalid } = parseAuditParams(await searchParams);
  const [users, projects] = await Promise.all([listUsers(), listAllProjects()]);
  const first = await firstLoad(listAudit(query));
  return (
    <AuditScreen
      page={first.data ?? null}
      error={first.error}
      filters={filters}
      invalid={invalid}
      users={users.map((u) => ({ id: u.id, label: u.name ? `${u.name} (${u.email})` : u.email }))}
      projects={projects.map((p) => ({ externalId: p.externalId, name: p.name }))}
    />
  );
}
