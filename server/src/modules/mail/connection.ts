import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { MailConfig } from '../../config';
import type { AddressPolicy } from '../../platform/ssrf';
import { checkAddress } from '../../platform/ssrf';

/**
 * Where one mail goes (docs/email.md "Sending mail from an automation"): the service's SMTP server
 * (`TASKSPACE_SMTP_URL`, trusted: the administrator set it), or a workspace's own SMTP URL given
 * by an `email.send` step. A workspace's server is checked like an outbound webhook (the SSRF
 * guard: no loopback, private, link-local or metadata address unless `TASKSPACE_WEBHOOKS_ALLOW_*`
 * allows it) and connected to at the address that was checked, so a DNS answer cannot change
 * between the check and the connection.
 */

/** The options handed to nodemailer's SMTP transport. */
export type TransportOptions = Record<string, unknown>;

/** Thrown for a workspace SMTP URL that cannot be used: the mail is given up (permanent). */
export class UnusableSmtpError extends Error {
  override name = 'UnusableSmtpError';
  /** Read by the sender as a permanent refusal. */
  readonly responseCode = 554;
}

/** Whether `url` is an `smtp://` or `smtps://` URL with a host. */
export function isSmtpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'smtp:' || parsed.protocol === 'smtps:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** Time limits of every SMTP conversation. */
function limits(mail: MailConfig): TransportOptions {
  return { connectionTimeout: mail.timeoutMs, greetingTimeout: mail.timeoutMs, socketTimeout: mail.timeoutMs, dnsTimeout: mail.timeoutMs };
}

/**
 * The transport options for a mail: the service's server when `workspaceUrl` is undefined, else the
 * workspace's, resolved and checked against `policy`.
 * @throws UnusableSmtpError when the URL is malformed or every address of its host is refused.
 */
export async function transportOptions(
  mail: MailConfig,
  policy: AddressPolicy,
  workspaceUrl: string | undefined,
): Promise<TransportOptions> {
  if (workspaceUrl === undefined) return { url: mail.smtpUrl, ...limits(mail) };
  if (!isSmtpUrl(workspaceUrl)) throw new UnusableSmtpError('the workspace SMTP connection is not an smtp:// or smtps:// URL');
  const url = new URL(workspaceUrl);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(hostname) ? [hostname] : (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
  const address = addresses.find((a) => checkAddress(policy, a).allowed);
  if (address === undefined)
    throw new UnusableSmtpError(`the workspace SMTP server ${hostname} is at an address the service does not connect to`);
  const secure = url.protocol === 'smtps:';
  const options: TransportOptions = {
    host: address,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    requireTLS: url.searchParams.get('requireTLS') === 'true',
    // Certificates are checked against the name in the URL, not the address connected to.
    tls: {
      servername: isIP(hostname) ? undefined : hostname,
      rejectUnauthorized: url.searchParams.get('tls.rejectUnauthorized') !== 'false',
    },
    ...limits(mail),
  };
  if (url.username || url.password) options.auth = { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) };
  return options;
}
