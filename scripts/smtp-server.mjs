#!/usr/bin/env node
// The real SMTP server of the e-mail tests and the bench: nodemailer's `smtp-server` on a
// loopback port, storing every message it accepts in a Maildir (tmp/ then new/), where the
// tests read them. It needs nothing but the npm packages (`make deps`).
//
// Usage: node scripts/smtp-server.mjs --listen 127.0.0.1:PORT --maildir DIR
//          [--tlscert FILE --tlskey FILE]   offer STARTTLS with this certificate
//          [--smtps]                        implicit TLS from the first byte (needs the pair)
//          [--delay-ms N]                   take N ms over each message before accepting it
//                                           (the cluster test's slow mail server)
// Any user name and password are accepted. It prints "listening on HOST:PORT" once it
// accepts connections, and stops at once on SIGTERM or SIGINT.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SMTPServer } from "smtp-server";

const { values } = parseArgs({
  options: {
    listen: { type: "string", default: "127.0.0.1:8025" },
    maildir: { type: "string" },
    tlscert: { type: "string" },
    tlskey: { type: "string" },
    smtps: { type: "boolean", default: false },
    "delay-ms": { type: "string", default: "0" },
  },
});
if (!values.maildir) {
  console.error("usage: smtp-server.mjs --listen HOST:PORT --maildir DIR [--tlscert FILE --tlskey FILE] [--smtps]");
  process.exit(2);
}
const at = values.listen.lastIndexOf(":");
const host = values.listen.slice(0, at);
const port = Number(values.listen.slice(at + 1));
const maildir = values.maildir;
const delayMs = Number(values["delay-ms"]);
for (const sub of ["tmp", "new", "cur"]) mkdirSync(join(maildir, sub), { recursive: true });

const tls = values.tlscert && values.tlskey ? { cert: readFileSync(values.tlscert), key: readFileSync(values.tlskey) } : null;
if (values.smtps && !tls) {
  console.error("--smtps needs --tlscert and --tlskey");
  process.exit(2);
}

let count = 0;
/** Writes one message the Maildir way: into tmp/, then renamed into new/ (readers never see half a file). */
function store(bytes) {
  const name = `${Date.now()}.P${process.pid}Q${++count}.${hostname()}`;
  writeFileSync(join(maildir, "tmp", name), bytes);
  renameSync(join(maildir, "tmp", name), join(maildir, "new", name));
}

const server = new SMTPServer({
  secure: values.smtps,
  ...(tls ?? {}),
  hideSTARTTLS: !tls,
  authOptional: true,
  allowInsecureAuth: true,
  disableReverseLookup: true,
  logger: false,
  onAuth(auth, _session, callback) {
    callback(null, { user: auth.username ?? "test" });
  },
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on("data", (chunk) => chunks.push(chunk));
    stream.on("error", callback);
    stream.on("end", () => {
      const accept = () => {
        try {
          store(Buffer.concat(chunks));
          callback();
        } catch (error) {
          callback(error);
        }
      };
      if (delayMs > 0) setTimeout(accept, delayMs);
      else accept();
    });
  },
});
let listening = false;
server.on("error", (error) => {
  console.error(`smtp-server: ${error.message}`);
  // Once listening, an error is one client's connection breaking (a sender killed in the
  // middle of a message): that client's end, not the server's.
  if (!listening) process.exit(1);
});
server.listen(port, host, () => {
  listening = true;
  console.log(`listening on ${host}:${port}`);
});
// Every accepted message is already on disk: stop at once, dropping open connections.
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
