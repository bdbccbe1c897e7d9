import "server-only";
import type { InboundSimulateRequest } from "@/lib/schemas/emails";
import { callService } from "./client";
import { simulatedReader } from "./readers";

export const inbound = {
  /** The interface leaves the synthesized message's shape open: only an id is relied upon, when there is one. */
  simulate: async (project: string, body: InboundSimulateRequest) =>
    callService({ method: "POST", path: "/v1/inbound/simulate", project, body, schema: simulatedReader }),
};
