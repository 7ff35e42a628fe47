import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Undoes quoted-printable (RFC 2045): soft line breaks, then =XX escapes as UTF-8 bytes. */
const unquote = (text: string) =>
  Buffer.from(
    text
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/**
 * A real SMTP server on the loopback (the `smtp-server` package, as the API tests use) that keeps
 * what it receives: the server under test sends its mail there (`SMTP_URL`).
 */
export async function startSmtpServer() {
  const messages: { to: string[]; text: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
        messages.push({ to, text: unquote(Buffer.concat(chunks).toString('latin1')) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    /** The invitation link of the last mail to `address`, if one came. */
    invitationLink(address: string): string | undefined {
      const mail = messages.filter((message) => message.to.includes(address.toLowerCase())).at(-1);
      return /https?:\/\/[^\s"<>]+\/invitations\/[A-Za-z0-9_-]+/.exec(mail?.text ?? '')?.[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
