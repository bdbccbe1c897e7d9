import { describe, expect, it } from "vitest";
import { allowDashboardWebhooks, dashboardIngestEntry } from "./webhook-allow";

describe("the dashboard's own ingest URLs for the local service's webhook allow-list", () => {
  it("are PUBLIC_URL's host (or localhost on PORT) and the ingest path below PUBLIC_URL's", () => {
    expect(dashboardIngestEntry({})).toBe("localhost:3000/api/ingest/");
    expect(dashboardIngestEntry({ PORT: "3400" })).toBe("localhost:3400/api/ingest/");
    expect(dashboardIngestEntry({ PUBLIC_URL: "https://mail.example.com/", PORT: "3400" })).toBe("mail.example.com/api/ingest/");
    expect(dashboardIngestEntry({ PUBLIC_URL: "https://example.com/mail/" })).toBe("example.com/mail/api/ingest/");
  });

  it("are added to the entries already allowed, once", () => {
    expect(allowDashboardWebhooks({ A: "1" }, "localhost:3000/api/ingest/")).toEqual({ A: "1", SERVICE_WEBHOOK_ALLOW_HOSTS: "localhost:3000/api/ingest/" });
    expect(allowDashboardWebhooks({ SERVICE_WEBHOOK_ALLOW_HOSTS: "hooks.lan, localhost:3000/api/ingest/" }, "localhost:3000/api/ingest/").SERVICE_WEBHOOK_ALLOW_HOSTS).toBe("hooks.lan,localhost:3000/api/ingest/");
    expect(allowDashboardWebhooks({ SERVICE_WEBHOOK_ALLOW_HOSTS: "hooks.lan" }, "localhost:3000/api/ingest/").SERVICE_WEBHOOK_ALLOW_HOSTS).toBe("hooks.lan,localhost:3000/api/ingest/");
  });
});
