import { execFile } from "node:child_process";
import { promisify } from "node:util";

// Reads the messages the SMTP test server stored in its Maildir, decoded by python3's email package
// (so quoted-printable or base64 bodies come out as text).

const run = promisify(execFile);

const READ = `
import json, mailbox, sys
from email import policy
from email.parser import BytesParser
box = mailbox.Maildir(sys.argv[1], factory=None, create=False)
out = []
for key in box.keys():
    with box.get_file(key) as f:
        msg = BytesParser(policy=policy.default).parse(f)
    def body(kind):
        part = msg.get_body(preferencelist=(kind,))
        return part.get_content() if part is not None else ""
    out.append({"messageId": str(msg["Message-ID"] or ""), "subject": str(msg["Subject"] or ""),
                "from": str(msg["From"] or ""), "to": str(msg["To"] or ""),
                "text": body("plain"), "html": body("html")})
print(json.dumps(out))
`;

export interface Mail {
  messageId: string;
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string;
}

export async function readMaildir(maildir: string): Promise<Mail[]> {
  try {
    const { stdout } = await run("python3", ["-c", READ, maildir]);
    return JSON.parse(stdout) as Mail[];
  } catch {
    return []; // Not created yet, or a message half written: the caller polls again.
  }
}
