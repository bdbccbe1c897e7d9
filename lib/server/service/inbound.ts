import "server-only";
import { z } from "zod";
import type { InboundSimulateRequest } from "@/lib/schemas";
import { callService } from "../service-client";

/** The interface leaves the synthesized message's shape open: only an id is relied upon. */
const simulated = z.looseObject({ id: z.string().optional() });

export const inbound = {
  simulate: async (project: string, body: InboundSimulateRequest) =>
    callService({ method: "POST", path: "/v1/inbound/simulate", project, body, schema: simulated }),
};
