/** Line-by-line JSON Lines reading from a file or stdin, with 1-based line numbers. */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { CliIo } from './cliTypes';

export type JsonlLine = { line: number; text: string };

export async function* readLines(file: string | undefined, io: CliIo): AsyncGenerator<JsonlLine> {
	const source =
		file && file !== '-' ? createInterface({ input: createReadStream(file), crlfDelay: Infinity }) : io.readStdin();
	let line = 0;
	for await (const text of source) {
		line++;
		if (text.trim() === '') continue;
		yield { line, text };
	}
}
