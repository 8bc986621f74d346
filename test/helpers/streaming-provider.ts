import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request the stand-in received, held open until the test answers it. */
export interface HeldRequest {
  /** The parsed request body (`stream: true` when a stream was asked for). */
  body: any;
  /** Sends one streamed chunk whose `choices[0].delta.content` is `text`. */
  send(text: string): void;
  /** Writes `text` as it is (comments, CRLF line ends, an event split across writes). */
  raw(text: string): void;
  /** Sends the last chunk (`finish_reason: 'stop'`) and `data: [DONE]`, and ends the answer. */
  finish(): void;
  /** Sends an `error` chunk, as providers do when they fail mid-answer, and ends the answer. */
  failWith(message: string): void;
  /** Breaks the connection off mid-answer. */
  breakOff(): void;
  /** Whether the connection was closed (by us, or by the caller giving up). */
  readonly closed: boolean;
}

/**
 * A loopback stand-in for an OpenAI-compatible provider that streams (`stream: true`): each
 * request is held open and answered chunk by chunk when the test says so, so a test can check
 * what the caller has received before the next chunk exists. A request without `stream` gets the
 * whole answer `reply` at once.
 */
export class StreamingProvider {
  readonly model = 'fake-stream-1';
  /** The whole answer to requests that do not ask for a stream. */
  reply = 'a whole answer';
  /** When false, every request gets the whole answer `reply`, even one asking for a stream (a server that cannot stream). */
  streams = true;
  private readonly waiting: HeldRequest[] = [];
  private readonly takers: ((held: HeldRequest) => void)[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString() || 'null');
      if (!body?.stream || !this.streams) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            model: this.model,
            choices: [{ index: 0, message: { role: 'assistant', content: this.reply }, finish_reason: 'stop' }],
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      let closed = false;
      res.on('close', () => {
        closed = true;
      });
      const chunk = (delta: Record<string, unknown>, finish: string | null) =>
        `data: ${JSON.stringify({ object: 'chat.completion.chunk', model: this.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const held: HeldRequest = {
        body,
        send: (text) => res.write(chunk({ content: text }, null)),
        raw: (text) => res.write(text),
        finish: () => res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`),
        failWith: (message) => res.end(`data: ${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`),
        breakOff: () => res.destroy(),
        get closed() {
          return closed;
        },
      };
      const taker = this.takers.shift();
      if (taker) taker(held);
      else this.waiting.push(held);
    });
  });

  /** The next streamed request (the one already received, or the next to come). */
  next(): Promise<HeldRequest> {
    const held = this.waiting.shift();
    if (held) return Promise.resolve(held);
    return new Promise((resolve) => this.takers.push(resolve));
  }

  /** Listens on a loopback port; resolves to the base URL to configure (`…/v1`). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** The environment of a server whose model provider is the stand-in at `baseUrl`. */
export function streamingProviderEnv(baseUrl: string): Record<string, string> {
  return { TASKSPACE_MODEL_PROVIDER: 'openai', TASKSPACE_MODEL_BASE_URL: baseUrl, TASKSPACE_MODEL_NAME: 'fake-stream' };
}
