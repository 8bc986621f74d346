import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../helpers/wait';

/**
 * A real SMTP server on loopback for the mail suites (the `smtp-server` package), keeping every
 * mail it accepted, parsed by `mailparser`. It can stop and start again on the same port (a dead
 * mail server), hold its answer to DATA (`hold()`: a mail in flight), require AUTH, and speak TLS
 * from the first byte (`secure`) or through STARTTLS (`tls` without `secure`).
 */
export interface TestSmtp {
  /** `smtp://…` or `smtps://…` for TASKSPACE_SMTP_URL. */
  url: string;
  port: number;
  /** Mails accepted so far (answered 250), oldest first. */
  mails: ParsedMail[];
  /** Whether the last session that sent a mail used TLS. */
  lastSecure(): boolean | undefined;
  /** Waits until `n` mails were accepted (or `predicate` holds for one) and returns them. */
  waitForMails(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Mails sent to `address`. */
  to(address: string): ParsedMail[];
  /** Stops listening (connections are refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /**
   * Holds the answer to the next DATA: the mail is received but neither accepted nor refused
   * until the returned function is called. `received` resolves when a mail is being held.
   */
  hold(): { received: Promise<void>; release(): void; closed(): Promise<void> };
}

export interface TestSmtpOptions {
  tls?: { key: string; cert: string };
  /** TLS from the first byte (smtps://). */
  secure?: boolean;
  /** Require AUTH PLAIN/LOGIN with these credentials. */
  auth?: { user: string; pass: string };
}

/** Starts a {@link TestSmtp} on 127.0.0.1 and a free port. */
export async function startSmtp(opts: TestSmtpOptions = {}): Promise<TestSmtp> {
  const mails: ParsedMail[] = [];
  let secure: boolean | undefined;
  let holding: { received: (session: string) => void; gate: Promise<void> } | undefined;
  const closed = new Set<string>();
  const options: SMTPServerOptions = {
    secure: opts.secure ?? false,
    ...(opts.tls ? { key: opts.tls.key, cert: opts.tls.cert } : {}),
    hideSTARTTLS: !opts.tls,
    authOptional: !opts.auth,
    allowInsecureAuth: !opts.tls,
    disabledCommands: opts.auth ? [] : ['AUTH'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onAuth(auth, _session, callback) {
      if (opts.auth && auth.username === opts.auth.user && auth.password === opts.auth.pass) callback(null, { user: auth.username });
      else callback(new Error('invalid credentials'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const held = holding;
        holding = undefined;
        const finish = async (): Promise<void> => {
          if (held) {
            held.received(session.id);
            await held.gate;
          }
          // A client that went away before the answer has not handed the mail over.
          if (closed.has(session.id)) return callback(new Error('connection closed'));
          const parsed = await simpleParser(Buffer.concat(chunks));
          secure = session.secure;
          mails.push(parsed);
          callback();
        };
        finish().catch((error: unknown) => callback(error as Error));
      });
    },
  };
  let server = new SMTPServer(options);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const scheme = opts.secure ? 'smtps' : 'smtp';
  const cred = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.pass)}@` : '';
  const tlsQuery = opts.tls ? '?tls.rejectUnauthorized=false' : '';
  return {
    url: `${scheme}://${cred}127.0.0.1:${port}${tlsQuery}`,
    port,
    mails,
    lastSecure: () => secure,
    async waitForMails(n, timeoutMs = 15000) {
      await waitFor(
        () => mails.length >= n,
        () => `${n} mails (have ${mails.length})`,
        timeoutMs,
      );
      return mails;
    },
    to: (address) =>
      mails.filter((m) =>
        JSON.stringify(m.to ?? '')
          .toLowerCase()
          .includes(address.toLowerCase()),
      ),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = new SMTPServer(options);
      await listen(port);
    },
    hold() {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let heldSession: string | undefined;
      let received!: () => void;
      const receivedP = new Promise<void>((resolve) => (received = resolve));
      holding = {
        received: (session) => {
          heldSession = session;
          received();
        },
        gate,
      };
      return {
        received: receivedP,
        release,
        closed: () =>
          waitFor(() => heldSession !== undefined && closed.has(heldSession), 'the held session to close').then(() => undefined),
      };
    },
  };
}

/** The first link in a mail's text body that starts with `prefix`. */
export function linkIn(mail: ParsedMail, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\S+`).exec(mail.text ?? '');
  if (!match) throw new Error(`no link ${prefix}… in: ${mail.text}`);
  return match[0];
}
