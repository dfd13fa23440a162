/**
 * Markdown by headings: each ATX heading (`#` … `######`, outside fenced code) starts a section
 * whose symbol is the heading path ("Install > From source"). Long sections are windowed and tiny
 * ones merged by the shared size rules.
 */
import type { LineUnit } from './chunkTypes';
import type { Lines } from './chunkUnits';

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;

/** The sections of a Markdown file as spans (text before the first heading is a `block`). */
export function markdownUnits(lines: Lines): LineUnit[] {
	const units: LineUnit[] = [];
	const path: string[] = [];
	let fence: string | null = null;
	let current: LineUnit = { start: 0, end: -1, kind: 'block', symbols: [] };
	lines.text.forEach((line, i) => {
		const f = FENCE.exec(line);
		if (f) fence = fence === null ? f[1] : fence === f[1] ? null : fence;
		const h = fence === null && !f ? HEADING.exec(line) : null;
		if (h) {
			if (current.end >= current.start) units.push(current);
			const level = h[1].length;
			path.length = Math.min(path.length, level - 1);
			path[level - 1] = h[2];
			current = { start: i, end: i, kind: 'section', symbols: [path.filter(Boolean).join(' > ')] };
		} else current.end = i;
	});
	if (current.end >= current.start) units.push(current);
	return units;
}
