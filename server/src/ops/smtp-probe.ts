import net from 'node:net';
import tls from 'node:tls';

/** What {@link probeSmtp} found. */
export interface SmtpProbe {
  ok: boolean;
  /** `host:port` probed. */
  target: string;
  /** The server's greeting and EHLO answer (first lines), or the failure. */
  detail: string;
}

/**
 * Whether the SMTP server of `smtpUrl` (`TASKSPACE_SMTP_URL`: `smtp://` on port 587 by default,
 * `smtps://` with implicit TLS on 465) answers: connects, reads its 220 greeting, sends EHLO and
 * reads its 250 answer, then QUIT (RFC 5321 §3.1, §4.1.1.1). Sends no credentials and no mail.
 * Never throws: a refused connection, a timeout or an unexpected answer is `ok: false`.
 */
export function probeSmtp(smtpUrl: string, timeoutMs = 5000): Promise<SmtpProbe> {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    return Promise.resolve({ ok: false, target: '?', detail: 'TASKSPACE_SMTP_URL is not a URL' });
  }
  const secure = url.protocol === 'smtps:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (secure ? 465 : 587);
  const target = `${host}:${port}`;
  return new Promise((resolve) => {
    const socket = secure ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host }) : net.connect({ host, port });
    let buffer = '';
    let stage: 'greeting' | 'ehlo' = 'greeting';
    let greeting = '';
    const finish = (ok: boolean, detail: string) => {
      clearTimeout(timer);
      if (ok) {
        socket.end('QUIT\r\n');
        // The server closes after QUIT; the process need not wait for it.
        socket.unref();
      } else socket.destroy();
      resolve({ ok, target, detail });
    };
    const timer = setTimeout(() => finish(false, `no answer within ${timeoutMs} ms`), timeoutMs);
    socket.once('error', (error: NodeJS.ErrnoException) => finish(false, error.code ?? error.message));
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      // A reply is complete at its last line: the code followed by a space (RFC 5321 §4.2.1).
      const lines = buffer.split('\r\n');
      const last = lines.slice(0, -1).find((line) => /^\d{3} /.test(line) || /^\d{3}$/.test(line));
      if (!last) return;
      buffer = '';
      if (stage === 'greeting') {
        if (!last.startsWith('220')) return finish(false, `greeting: ${last}`);
        greeting = last;
        stage = 'ehlo';
        socket.write('EHLO taskspace-doctor\r\n');
      } else if (last.startsWith('250')) finish(true, `${greeting}; EHLO ${last}`);
      else finish(false, `EHLO: ${last}`);
    });
  });
}
