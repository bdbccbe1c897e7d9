/**
 * The few direct calls to the email service the harness makes itself (with the account-wide
 * key, as a back-end would): the benchmark's and the browser tests' fixtures.
 */
export interface ServiceAccess {
  serviceURL: string;
  key: string;
  project: string;
}

function headers(access: ServiceAccess): Record<string, string> {
  return { Authorization: `Bearer ${access.key}`, "X-Service-Product": access.project, "Content-Type": "application/json" };
}

/** A verified sending domain of the project (the demo seed has one per project). */
export async function verifiedDomain(access: ServiceAccess): Promise<string> {
  const response = await fetch(`${access.serviceURL}/v1/domains?status=verified`, { headers: headers(access) });
  if (!response.ok) throw new Error(`GET /v1/domains: HTTP ${response.status} ${await response.text()}`);
  const page = (await response.json()) as { data: { domain: string }[] };
  const domain = page.data[0]?.domain;
  if (!domain) throw new Error(`project ${access.project} has no verified domain to send from`);
  return domain;
}

/** Sends one message through the service and returns its id. */
export async function sendMessage(access: ServiceAccess, fields: { to?: string; subject?: string; text?: string; html?: string; tags?: { name: string; value: string }[] } = {}): Promise<string> {
  const domain = await verifiedDomain(access);
  const response = await fetch(`${access.serviceURL}/v1/emails`, {
    method: "POST",
    headers: headers(access),
    body: JSON.stringify({
      from: { email: `harness@${domain}`, name: "Test harness" },
      to: [{ email: fields.to ?? "delivered@example.com" }],
      subject: fields.subject ?? "Sent by the test harness",
      text: fields.text ?? "Hello from the harness.",
      ...(fields.html ? { html: fields.html } : {}),
      ...(fields.tags ? { tags: fields.tags } : {}),
    }),
  });
  if (response.status !== 202) throw new Error(`POST /v1/emails: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** The id of the first item of a list operation (`/v1/templates`, `/v1/domains`). */
export async function firstId(access: ServiceAccess, listPath: string): Promise<string> {
  const response = await fetch(`${access.serviceURL}${listPath}?limit=1`, { headers: headers(access) });
  if (!response.ok) throw new Error(`GET ${listPath}: HTTP ${response.status} ${await response.text()}`);
  const id = ((await response.json()) as { data: { id: string }[] }).data[0]?.id;
  if (!id) throw new Error(`GET ${listPath} listed nothing in project ${access.project}`);
  return id;
}

/** Creates a contact and returns its id. */
export async function createContact(access: ServiceAccess, email: string): Promise<string> {
  const response = await fetch(`${access.serviceURL}/v1/contacts`, {
    method: "POST",
    headers: headers(access),
    body: JSON.stringify({ email, firstName: "Ada", lastName: "Harness" }),
  });
  if (response.status !== 201) throw new Error(`POST /v1/contacts: HTTP ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}
