import { describe, expect, it } from "vitest";
import { allowDashboardWebhooks, dashboardHost } from "./webhook-allow";

describe("the dashboard's own host for the local service's webhook allow-list", () => {
  it("is PUBLIC_URL's host, or localhost on PORT", () => {
    expect(dashboardHost({})).toBe("localhost:3000");
    expect(dashboardHost({ PORT: "3400" })).toBe("localhost:3400");
    expect(dashboardHost({ PUBLIC_URL: "https://mail.example.com/", PORT: "3400" })).toBe("mail.example.com");
  });

  it("is added to the hosts already allowed, once", () => {
    expect(allowDashboardWebhooks({ A: "1" }, "localhost:3000")).toEqual({ A: "1", SERVICE_WEBHOOK_ALLOW_HOSTS: "localhost:3000" });
    expect(allowDashboardWebhooks({ SERVICE_WEBHOOK_ALLOW_HOSTS: "hooks.lan, localhost:3000" }, "localhost:3000").SERVICE_WEBHOOK_ALLOW_HOSTS).toBe("hooks.lan,localhost:3000");
    expect(allowDashboardWebhooks({ SERVICE_WEBHOOK_ALLOW_HOSTS: "hooks.lan" }, "localhost:3000").SERVICE_WEBHOOK_ALLOW_HOSTS).toBe("hooks.lan,localhost:3000");
  });
});
