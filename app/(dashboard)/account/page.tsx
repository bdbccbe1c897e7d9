import type { Metadata } from "next";
import { guardPage } from "@/lib/server/gate/guard";
import { getTwoFactorStatus } from "@/lib/server/two-factor";
import { AccountScreen } from "./account-screen";

export const metadata: Metadata = { title: "Account" };

/** The signed-in user's own account: how they prove who they are (issue 29). Every role has one. */
export default async function AccountPage() {
  const { user } = await guardPage("account:own");
  return <AccountScreen email={user.email} initialStatus={await getTwoFactorStatus(user)} />;
}
