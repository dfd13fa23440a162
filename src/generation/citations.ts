/**
 * `[n]` citation markers in a reply, mapped to the evidence they number. Markers inside code
 * (fenced blocks, inline code) and index expressions such as `arr[1]` are not citations.
 */
import type { Citation } from '../core/protocol';
import type { PromptEvidence } from './generator';

/** `[1]`, `[2, 3]` or `[2,3]` not glued to an identifier or a call (`arr[1]`, `f()[0]`). */
const MARKER = /(?<![\w$.)\]])\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** Code spans and fenced blocks, masked (same length) so offsets stay valid. */
function maskCode(text: string): string {
	const blank = (m: string) => m.replace(/[^\n]/g, ' ');
	return text
		.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[`~]*[ \t]*$|(?![\s\S]))/gm, blank)
		.replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, blank);
}

/** Every marker outside code, in reading order, with the numbers it lists. */
function markers(text: string): { index: number; length: number; ns: number[] }[] {
	const masked = maskCode(text);
	const out: { index: number; length: number; ns: number[] }[] = [];
	for (const m of masked.matchAll(MARKER)) {
		out.push({ index: m.index, length: m[0].length, ns: m[1].split(',').map((s) => Number(s.trim())) });
	}
	return out;
}

/**
 * The citations a reply actually uses: each valid `[n]` once, in order of first use, with its
 * evidence's label, lines and a URI from `toUri` (null for memories or paths outside the workspace).
 * Numbers with no evidence are ignored here; see `stripInvalidCitations`.
 */
export function citationsFor(
	text: string,
	evidence: readonly PromptEvidence[],
	toUri: (path: string) => string | null,
): Citation[] {
	const byN = new Map(evidence.map((e) => [e.n, e]));
	const seen = new Set<number>();
	const out: Citation[] = [];
	for (const m of markers(text)) {
		for (const n of m.ns) {
			const e = byN.get(n);
			if (!e || seen.has(n)) continue;
			seen.add(n);
			out.push({
				n,
				label: e.source,
				uri: e.path === null ? null : toUri(e.path),
				startLine: e.startLine,
				endLine: e.endLine,
			});
		}
	}
	return out;
}

/**
 * Removes citations of evidence that does not exist (a model citing `[7]` when five blocks were
 * given): a marker that cites nothing would look like proof. `[2, 9]` keeps `[2]`; a marker with no
 * valid number is removed with the space before it. Returns the cleaned text and the numbers removed.
 */
export function stripInvalidCitations(
	text: string,
	evidence: readonly PromptEvidence[],
): { text: string; removed: number[] } {
	const valid = new Set(evidence.map((e) => e.n));
	const removed: number[] = [];
	let out = '';
	let at = 0;
	for (const m of markers(text)) {
		const good = m.ns.filter((n) => valid.has(n));
		const bad = m.ns.filter((n) => !valid.has(n));
		if (bad.length === 0) continue;
		removed.push(...bad);
		let start = m.index;
		if (good.length === 0) while (start > at && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
		out += text.slice(at, start) + (good.length ? `[${good.join(', ')}]` : '');
		at = m.index + m.length;
	}
	return { text: out + text.slice(at), removed };
}
