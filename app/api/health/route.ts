import { route } from "@/lib/server/route";
import { serviceHealth } from "@/lib/server/service-client";

/** The service's state for the banner; no sign-in needed, nothing about the account in it. */
export const GET = route(null, async () => ({ service: await serviceHealth() }));
