import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import { MAILDIR, mailDir, SMTP_PORT, SMTP_SCRIPT } from "./support/env";

// Starts a real SMTP server (scripts/smtp-server.mjs: nodemailer's smtp-server) that the
// default site server e-mails its leads to, storing them in a Maildir the tests read.
// The function returned here is the global teardown: it stops the server.

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
  await exited;
  clearTimeout(timer);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (await accepts(SMTP_PORT)) {
    throw new Error(`port ${SMTP_PORT} for the test SMTP server is taken; set E2E_SMTP_PORT to a free one`);
  }
  rmSync(mailDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [SMTP_SCRIPT, "--listen", `127.0.0.1:${SMTP_PORT}`, "--maildir", MAILDIR], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 15_000;
  while (!(await accepts(SMTP_PORT))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop(child);
      throw new Error(`the SMTP test server did not start on port ${SMTP_PORT}:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return () => stop(child);
}
