import { expect } from "../fixtures";
import { leadsByPhone, type StoredLead } from "./db";
import { MAILDIR } from "./env";
import { type Mail, readMaildir } from "./mail";

// What a callback request leaves behind on the server: its row in SQLite and its e-mail.

/** Waits for the SMTP test server to have stored the e-mail for a lead (10 s at most). */
export async function waitForLeadMail(leadId: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await readMaildir(MAILDIR)).find((m) => m.messageId.includes(leadId));
        return Boolean(found);
      },
      { message: `an e-mail for lead ${leadId} arrives in ${MAILDIR}`, timeout: 10_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
  return found as Mail;
}

/** The one lead stored for a phone number. */
export async function expectStoredLead(dbPath: string, phoneE164: string): Promise<StoredLead> {
  const rows = await leadsByPhone(dbPath, phoneE164);
  expect(rows, `one lead stored for ${phoneE164}`).toHaveLength(1);
  return rows[0];
}
