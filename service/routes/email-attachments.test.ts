import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "../test/harness";
import { createSendingService, sendableEmail } from "../test/sending-fixtures";

let svc: TestService;
const base = sendableEmail;

beforeAll(async () => {
  svc = await createSendingService();
});
afterAll(() => svc.close());


describe("attachments", () => {
  const bytes = Buffer.from([0, 1, 2, 250, 255, 10, 13, 37]);

  it("lists metadata whose url serves the bytes to an authenticated GET", async () => {
    const { id } = await (await svc.sendEmail({
      ...base, attachments: [{ filename: "data.bin", content: bytes.toString("base64") }, { filename: "note.html", content: Buffer.from("<b>x</b>").toString("base64"), contentType: "text/html" }],
    })).json();
    const list = await svc.call("GET", `/v1/emails/${id}/attachments`, { project: null });
    expect(list.status).toBe(200);
    const { data } = await list.json();
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ filename: "data.bin", contentType: "application/octet-stream", size: bytes.length });
    expect(data[0].url).toBe(`http://localhost/v1/emails/${id}/attachments/${data[0].id}`);

    const file = await svc.call("GET", new URL(data[0].url).pathname, { project: null });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(file.headers.get("content-disposition")).toContain('attachment; filename="data.bin"');
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await svc.call("GET", new URL(data[1].url).pathname, { project: null });
    expect(html.headers.get("content-type")).toBe("text/html");
    expect(html.headers.get("content-disposition")).toMatch(/^attachment/);

    expect((await svc.app.request(new URL(data[0].url).pathname)).status).toBe(401);
    expect((await svc.call("GET", new URL(data[0].url).pathname, { project: "beta" })).status).toBe(404);
    expect((await svc.call("GET", `/v1/emails/${id}/attachments/att_nope000000`)).status).toBe(404);
    expect((await svc.call("GET", `/v1/emails/${id}/attachments`, { project: "beta" })).status).toBe(404);
    expect((await svc.call("GET", "/v1/emails/msg_nope0000000/attachments")).status).toBe(404);
  });

  it("uses SERVICE_PUBLIC_URL for urls when set", async () => {
    const other = await createSendingService({ config: { SERVICE_PUBLIC_URL: "https://mail.example.org/" } });
    try {
      const { id } = await (await other.call("POST", "/v1/emails", { body: { ...base, attachments: [{ filename: "a.txt", content: "YQ==" }] } })).json();
      const { data } = await (await other.call("GET", `/v1/emails/${id}/attachments`)).json();
      expect(data[0].url).toMatch(/^https:\/\/mail\.example\.org\/v1\/emails\/msg_/);
    } finally {
      await other.close();
    }
  });
});
