import { execFile } from "node:child_process";
import { promisify } from "node:util";

// Reads a site server's SQLite database through python3's sqlite3 module (Node 20 has no
// SQLite of its own and the machine has no sqlite3 CLI), read-only: the server keeps writing.
// `execute` writes, for the one thing a browser test cannot wait for: time (a delivery the
// worker would give up only after 72 hours).

const run = promisify(execFile);

const QUERY = `
import json, sqlite3, sys
path, sql, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
db = sqlite3.connect("file:" + path + "?mode=ro", uri=True, timeout=5)
db.row_factory = sqlite3.Row
rows = [dict(r) for r in db.execute(sql, params)]
print(json.dumps(rows))
`;

const EXECUTE = `
import json, sqlite3, sys
path, sql, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
db = sqlite3.connect(path, timeout=10)
changed = db.execute(sql, params).rowcount
db.commit()
print(changed)
`;

export type Row = Record<string, string | number | null>;

/** Runs one statement that writes; resolves to the number of rows it changed. */
export async function execute(dbPath: string, sql: string, params: Array<string | number> = []): Promise<number> {
  const { stdout } = await run("python3", ["-c", EXECUTE, dbPath, sql, JSON.stringify(params)]);
  return Number(stdout.trim());
}

export async function query<T = Row>(dbPath: string, sql: string, params: Array<string | number> = []): Promise<T[]> {
  const { stdout } = await run("python3", ["-c", QUERY, dbPath, sql, JSON.stringify(params)]);
  return JSON.parse(stdout) as T[];
}

export interface StoredLead {
  id: string;
  service_slug: string;
  full_name: string;
  phone_e164: string;
  zip_code: string | null;
  consent: number;
  tcpa_text: string;
  cert_url: string | null;
  cert_token: string | null;
  cert_ping_url: string | null;
  page_url: string | null;
  user_agent: string | null;
}

/** The leads stored for a phone number (E.164), oldest first, with their consent wording. */
export function leadsByPhone(dbPath: string, phoneE164: string): Promise<StoredLead[]> {
  return query<StoredLead>(
    dbPath,
    `SELECT l.id, l.service_slug, l.full_name, l.phone_e164, l.zip_code, l.consent, c.text AS tcpa_text,
            l.cert_url, l.cert_token, l.cert_ping_url, l.page_url, l.user_agent
       FROM leads l JOIN consent_texts c ON c.sha256 = l.consent_sha256
      WHERE l.phone_e164 = ? ORDER BY l.received_at_ms`,
    [phoneE164],
  );
}

export interface StoredCertificate {
  token: string;
  ping_url: string | null;
  cert_url: string | null;
  service_slug: string;
}

export function certificateByToken(dbPath: string, token: string): Promise<StoredCertificate[]> {
  return query<StoredCertificate>(dbPath, "SELECT token, ping_url, cert_url, service_slug FROM certificates WHERE token = ?", [token]);
}
