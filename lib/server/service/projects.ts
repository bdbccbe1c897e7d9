import "server-only";
import { callService } from "./client";
import { anyAnswer } from "./readers";

export const projects = {
  /**
   * Whether the service accepts the project, asked with the cheapest read that names one (a
   * page of one template): any answer means it does, an error answer says why not.
   */
  check: async (project: string): Promise<void> => {
    await callService({ method: "GET", path: "/v1/templates", project, query: { limit: 1 }, schema: anyAnswer });
  },
};
