import { headers } from "next/headers";
import { guardPage, PATHNAME_HEADER } from "@/lib/server/gate/guard";
import { screenPermission } from "@/lib/nav";

/**
 * An admin screen the role may not use is refused here with HTTP 403, before its loading.tsx
 * streams; each page still guards itself (layouts are not re-run between sibling screens).
 */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const permission = screenPermission((await headers()).get(PATHNAME_HEADER) ?? "");
  if (permission) await guardPage(permission);
  return children;
}
