import { forbidden, redirect } from "next/navigation";
import { currentUser } from "@/lib/server/guard";
import { visibleAdminScreens } from "@/components/shell/nav";

/** /admin opens the first admin screen the role may use. */
export default async function AdminIndex() {
  const user = await currentUser();
  if (!user) redirect("/login?callbackUrl=%2Fadmin");
  const first = visibleAdminScreens(user.role)[0];
  if (!first) forbidden();
  redirect(first.href);
}
