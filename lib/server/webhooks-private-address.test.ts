import { describe, expect, it } from "vitest";
import { privateAddressReason } from "@/lib/schemas/webhooks-form";

describe("privateAddressReason (webhook URL warning)", () => {
  it.each([
    ["http://127.0.0.1:8080/hook", /loopback/],
    ["http://localhost/hook", /loopback/],
    ["http://api.localhost/hook", /loopback/],
    ["http://10.1.2.3/hook", /RFC 1918/],
    ["http://172.16.0.1/hook", /RFC 1918/],
    ["http://172.31.255.255/hook", /RFC 1918/],
    ["http://192.168.1.10/hook", /RFC 1918/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["http://[::1]/hook", /loopback/],
    ["http://[fd12:3456::1]/hook", /ULA/],
    ["http://[fe80::1]/hook", /link-local/],
    ["http://[::ffff:192.168.0.1]/hook", /RFC 1918/],
    ["http://printer.local/hook", /private network/],
  ])("warns about %s", (url, reason) => {
    expect(privateAddressReason(url)).toMatch(reason);
  });

  it.each(["https://hooks.example.com/x", "http://172.32.0.1/", "http://8.8.8.8/", "http://[2001:db8::1]/", "not a url"])("lets %s through", (url) => {
    expect(privateAddressReason(url)).toBeNull();
  });
});
