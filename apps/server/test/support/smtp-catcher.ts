import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** The message as sent, quoted-printable soft line breaks and escapes undone. */
  raw: string;
}

/** Undoes quoted-printable (RFC 2045): soft line breaks, then =XX escapes as UTF-8 bytes. */
const unquote = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/**
 * A real SMTP server on the loopback (the `smtp-server` package) that keeps every message it
 * receives: where the server under test sends its mail (API and browser tests alike).
 */
export async function startSmtpCatcher(port?: number) {
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address);
        messages.push({ to, raw: unquote(Buffer.concat(chunks).toString('latin1')) });
        callback();
      });
    },
  });
  // A free port unless asked for one (a test restarting the mail server on the same port).
  await new Promise<void>((resolve) => server.listen(port ?? 0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    messages,
    /** The messages to one address (its domain's case may have changed on the way). */
    to: (address: string) =>
      messages.filter((message) => message.to.some((to) => to.toLowerCase() === address.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The invitation link in a caught message. */
export function linkIn(mail: CaughtMail | undefined): string {
  const link = /https?:\/\/[^\s"<>]+\/invitations\/[A-Za-z0-9_-]{64}/.exec(mail?.raw ?? '')?.[0];
  if (!link) throw new Error('no invitation link in the mail');
  return link;
}
