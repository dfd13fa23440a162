/**
 * Bytes → text, or a reason to skip. Decision (docs/indexing.md): UTF-8 (a BOM is dropped);
 * UTF-16 only with its BOM; a NUL byte in the first `sniffBytes` means binary; bytes that are not
 * valid UTF-8 are decoded as Latin-1 (ISO-8859-1: every byte is a character, which is what
 * legacy editors on Western systems mostly wrote) when few of them are control characters, and
 * otherwise skipped as undecodable.
 */
import { readFile } from 'node:fs/promises';

/** Why a file was not indexed (the keys of `gmem index`'s "skipped" object). */
export type SkipReason =
	| 'ignored'
	| 'excluded-folder'
	| 'generated'
	| 'secret'
	| 'too-large'
	| 'binary'
	| 'undecodable'
	| 'unreadable'
	| 'symlink'
	| 'symlink-loop';

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
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
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
		return { ok: false, reason: 'undecodable', detail: `not UTF-8, ${controls} control bytes in ${head.length}` };
	}
	return { ok: true, text: new TextDecoder('latin1').decode(bytes), encoding: 'latin1' };
}

/** Reads and decodes a file; a read error is a skip ('unreadable'), never a throw. */
export async function readText(absPath: string, limits: DecodeLimits): Promise<DecodedText & { bytes?: Buffer }> {
	let bytes: Buffer;
	try {
		bytes = await readFile(absPath);
	} catch (e) {
		return { ok: false, reason: 'unreadable', detail: (e as NodeJS.ErrnoException).code ?? String(e) };
	}
	const decoded = decodeText(bytes, limits);
	return decoded.ok ? { ...decoded, bytes } : decoded;
}
