/**
 * Bytes → text, or a reason to skip. Decision (docs/indexing.md): UTF-8 (a BOM is dropped);
 * UTF-16 only with its BOM; a NUL byte in the first `sniffBytes` means binary; a NUL anywhere
 * later (a log with a stray `\0`, an Illustrator `.ai`) skips the file as `nul` — never stripped,
 * never sent to Postgres, whose text type cannot hold it; bytes that are not valid UTF-8 are
 * decoded as Latin-1 (ISO-8859-1: every byte is a character, which is what legacy editors on
 * Western systems mostly wrote) when few of them are control characters, and otherwise skipped
 * as `encoding`.
 */
import { constants, open } from 'node:fs/promises';

/** Why a file was not indexed (the keys of `gmem index`'s "skipped" object). */
export type SkipReason =
	| 'ignored'
	| 'excluded-folder'
	| 'generated'
	| 'secret'
	| 'too_large'
	| 'binary'
	| 'nul'
	| 'encoding'
	| 'unreadable'
	| 'not_regular'
	| 'chunker_error'
	| 'write_error'
	| 'symlink'
	| 'symlink-loop'
	| 'symlink-outside';

/** Sniffing limits (thresholds `index_binary_sniff_bytes`, `index_max_control_ratio`). */
export interface DecodeLimits {
	sniffBytes: number;
	maxControlRatio: number;
}

/** A decoded file, or why it was skipped. */
export type DecodedText =
	| { ok: true; text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1' }
	| { ok: false; reason: SkipReason; detail: string };

// Control bytes that never appear in text (tab, LF, VT, FF, CR and ESC do: ANSI colours in logs).
function isControl(b: number): boolean {
	return (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) || b === 0x7f;
}

/** Decodes a file's bytes following the rules above. */
export function decodeText(bytes: Uint8Array, limits: DecodeLimits): DecodedText {
	const decoded = decodeBytes(bytes, limits);
	// UTF-16 and Latin-1 can decode to U+0000 too: whatever the encoding, no NUL reaches the store.
	if (decoded.ok && decoded.text.includes('\0'))
		return { ok: false, reason: 'nul', detail: `NUL at character ${decoded.text.indexOf('\0')}` };
	return decoded;
}

function decodeBytes(bytes: Uint8Array, limits: DecodeLimits): DecodedText {
	if (bytes[0] === 0xff && bytes[1] === 0xfe)
		return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
	if (bytes[0] === 0xfe && bytes[1] === 0xff)
		return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
	const head = bytes.subarray(0, limits.sniffBytes);
	if (head.includes(0)) return { ok: false, reason: 'binary', detail: 'NUL byte' };
	try {
		// fatal: throw on invalid sequences instead of silently inserting U+FFFD; ignoreBOM false drops it.
		return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
	} catch (e) {
		if (!(e instanceof TypeError)) throw e;
	}
	let controls = 0;
	for (const b of head) if (isControl(b)) controls++;
	if (head.length && controls / head.length > limits.maxControlRatio) {
		return { ok: false, reason: 'encoding', detail: `not UTF-8, ${controls} control bytes in ${head.length}` };
	}
	return { ok: true, text: new TextDecoder('latin1').decode(bytes), encoding: 'latin1' };
}

/** What a stat says a non-regular entry is (for the skip's detail). */
export function entryKind(s: {
	isFIFO(): boolean;
	isSocket(): boolean;
	isCharacterDevice(): boolean;
	isBlockDevice(): boolean;
	isDirectory(): boolean;
}): string {
	if (s.isFIFO()) return 'fifo';
	if (s.isSocket()) return 'socket';
	if (s.isCharacterDevice() || s.isBlockDevice()) return 'device';
	return s.isDirectory() ? 'directory' : 'special file';
}

/**
 * Reads and decodes a file; never throws. Opened non-blocking and checked with fstat before any
 * read: a path that became a FIFO since the walk's stat would otherwise block the read forever.
 * `maxBytes` re-checks the size on the open file (it may have grown since the walk).
 */
export async function readText(
	absPath: string,
	limits: DecodeLimits,
	maxBytes = Infinity,
): Promise<DecodedText & { bytes?: Buffer }> {
	let bytes: Buffer;
	try {
		// O_NONBLOCK is undefined on Windows (no FIFOs to fear there): `| undefined` adds nothing.
		const fh = await open(absPath, constants.O_RDONLY | constants.O_NONBLOCK);
		try {
			const s = await fh.stat();
			if (!s.isFile()) return { ok: false, reason: 'not_regular', detail: entryKind(s) };
			if (s.size > maxBytes) return { ok: false, reason: 'too_large', detail: `${s.size} bytes` };
			bytes = await fh.readFile();
		} finally {
			await fh.close();
		}
	} catch (e) {
		return { ok: false, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
	}
	const decoded = decodeText(bytes, limits);
	return decoded.ok ? { ...decoded, bytes } : decoded;
}
