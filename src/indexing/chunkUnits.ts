/**
 * Turning spans of lines into chunk-sized pieces: oversize spans are split into overlapping
 * windows, tiny neighbours are merged, blank spans dropped. Shared by every chunker so the
 * size rules are the same for code, Markdown and plain text.
 */
import type { ChunkLimits, LineUnit } from './chunkTypes';

/** The file as lines plus their lengths (computed once per file). */
export interface Lines {
	text: readonly string[];
	/** chars[i] = length of line i plus its newline. */
	chars: readonly number[];
}

/** Splits text into lines (LF or CRLF); a trailing newline does not make an extra empty line. */
export function toLines(text: string): Lines {
	const t = text.split(/\r?\n/);
	if (t.length > 1 && t[t.length - 1] === '') t.pop();
	return { text: t, chars: t.map((l) => l.length + 1) };
}

function isBlank(lines: Lines, u: LineUnit): boolean {
	for (let i = u.start; i <= u.end; i++) if (lines.text[i].trim() !== '') return false;
	return true;
}

function span(lines: Lines, start: number, end: number): { lines: number; chars: number } {
	let chars = 0;
	for (let i = start; i <= end; i++) chars += lines.chars[i];
	return { lines: end - start + 1, chars };
}

/** True when the unit fits one chunk. */
export function fits(lines: Lines, start: number, end: number, limits: ChunkLimits): boolean {
	const s = span(lines, start, end);
	return s.lines <= limits.maxLines && s.chars <= limits.maxChars;
}

/**
 * Cuts an oversize unit into windows of at most maxLines/maxChars that overlap by overlapLines
 * (never so much that a window would not advance). A single line wider than maxChars is its own
 * window; its text is cut later, when the chunk is materialised.
 */
export function splitUnit(lines: Lines, u: LineUnit, limits: ChunkLimits): LineUnit[] {
	if (fits(lines, u.start, u.end, limits)) return [u];
	const out: LineUnit[] = [];
	let start = u.start;
	for (;;) {
		let end = start;
		let chars = lines.chars[start];
		while (end < u.end && end - start + 1 < limits.maxLines && chars + lines.chars[end + 1] <= limits.maxChars) {
			end++;
			chars += lines.chars[end];
		}
		out.push({ ...u, start, end, atomic: true });
		if (end >= u.end) return out;
		// Overlap, but always advance by at least one line.
		start = Math.max(start + 1, end + 1 - limits.overlapLines);
	}
}

function merged(a: LineUnit, b: LineUnit): LineUnit {
	const all = [...a.symbols, ...b.symbols.filter((s) => !a.symbols.includes(s))];
	// `Cls` next to `Cls.method` says nothing more: keep the qualified name only.
	const symbols = all.filter((s) => !all.some((t) => t.startsWith(`${s}.`)));
	const kind = a.kind === 'block' ? b.kind : a.kind;
	return { start: a.start, end: b.end, kind, symbols };
}

/**
 * Greedy merge of adjacent units when either side is tiny (< minLines) and the result still fits.
 * Units produced by splitting a long definition are never merged (they are already full size).
 */
export function mergeTiny(lines: Lines, units: readonly LineUnit[], limits: ChunkLimits): LineUnit[] {
	const out: LineUnit[] = [];
	for (const u of units) {
		const last = out[out.length - 1];
		const tiny = (x: LineUnit) => !x.atomic && x.end - x.start + 1 < limits.minLines;
		if (
			last &&
			last.end + 1 === u.start &&
			(tiny(last) || tiny(u)) &&
			!last.atomic &&
			!u.atomic &&
			fits(lines, last.start, u.end, limits)
		) {
			out[out.length - 1] = merged(last, u);
		} else out.push(u);
	}
	return out;
}

/** Split, drop blank spans, merge tiny neighbours: the final spans of a file. */
export function sizeUnits(lines: Lines, units: readonly LineUnit[], limits: ChunkLimits): LineUnit[] {
	const split = units.flatMap((u) => splitUnit(lines, u, limits));
	return mergeTiny(lines, split, limits).filter((u) => !isBlank(lines, u));
}

/** Trims leading and trailing blank lines off a unit (a chunk starts and ends on text). */
export function trimBlank(lines: Lines, u: LineUnit): LineUnit {
	let { start, end } = u;
	while (start < end && lines.text[start].trim() === '') start++;
	while (end > start && lines.text[end].trim() === '') end--;
	return { ...u, start, end };
}

/** Line windows over the whole file: the chunker for files without structure. */
export function lineWindows(lines: Lines, limits: ChunkLimits): LineUnit[] {
	if (!lines.text.length) return [];
	return sizeUnits(lines, [{ start: 0, end: lines.text.length - 1, kind: 'lines', symbols: [] }], limits);
}
