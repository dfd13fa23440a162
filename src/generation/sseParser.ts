/**
 * Server-sent events, as OpenAI-compatible servers stream them: `data:` lines grouped into events
 * by blank lines. Bytes arrive in arbitrary pieces (a line, or a UTF-8 character, may be split
 * across reads), so the decoder streams and the parser keeps the unfinished line.
 */

/** Feeds decoded text in, gets each complete event's data out (lines joined with '\n'). */
export class SseParser {
	private buffer = '';
	private data: string[] = [];
	private readonly decoder = new TextDecoder();

	/** The complete events in this piece of the byte stream. */
	push(bytes: Uint8Array): string[] {
		return this.feed(this.decoder.decode(bytes, { stream: true }));
	}

	/** Flushes at the end of the stream: a last event not followed by a blank line still counts. */
	end(): string[] {
		const out = this.feed(`${this.decoder.decode()}\n\n`);
		this.buffer = '';
		return out;
	}

	private feed(text: string): string[] {
		this.buffer += text;
		const events: string[] = [];
		let nl: number;
		while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
			// A lone trailing CR may be the first half of a CRLF split across reads: wait for more.
			if (nl === this.buffer.length - 1 && this.buffer[nl] === '\r') break;
			const line = this.buffer.slice(0, nl);
			this.buffer = this.buffer.slice(nl + (this.buffer.startsWith('\r\n', nl) ? 2 : 1));
			if (line === '') {
				if (this.data.length) events.push(this.data.join('\n'));
				this.data = [];
			} else if (line.startsWith('data:')) {
				this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
			}
			// Comments (":keep-alive"), event:, id: and retry: lines carry nothing we use.
		}
		return events;
	}
}
