/** One dispatched server-sent event (the HTML standard's "event stream interpretation"). */
export interface SseMessage {
  /** The last event id after this message: its own `id:` or the one before it. */
  lastEventId: string;
  /** `message` when the event named none. */
  event: string;
  data: string;
}

/**
 * A streaming `text/event-stream` parser, fed decoded text in chunks of any size (a line or a
 * CRLF may be split across chunks). Comments (`: ping`) are skipped, `retry:` is reported, an
 * `id:` updates the last event id even on a message with no data, as browsers do.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private eventType = '';
  private idBuffer = '';
  private lastId = '';
  private sawCr = false;
  private started = false;

  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    private readonly onRetry: (ms: number) => void = () => undefined,
  ) {}

  /** The id a reconnect sends as `Last-Event-ID`. */
  get lastEventId(): string {
    return this.lastId;
  }

  push(chunk: string): void {
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR ended the previous chunk: a LF opening this one belongs to it.
    if (this.sawCr && text.startsWith('\n')) text = text.slice(1);
    this.sawCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      this.line(this.buffer.slice(start, i));
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.sawCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventType = value;
    else if (field === 'id') {
      if (!value.includes('\0')) this.idBuffer = value;
    } else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry(Number(value));
  }

  private dispatch(): void {
    this.lastId = this.idBuffer;
    const data = this.data;
    const event = this.eventType;
    this.data = [];
    this.eventType = '';
    if (data.length === 0) return;
    this.onMessage({ lastEventId: this.lastId, event: event || 'message', data: data.join('\n') });
  }
}
