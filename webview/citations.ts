/**
 * `[n]` markers in a rendered reply become citation links. A citation with a file URI is a link
 * (`a.citation`, no href: the click handler sends `citation/open`, the webview never navigates); one
 * without (a memory) is a `span.citation` whose label is its tooltip. Markers inside code, inside
 * links and numbers with no citation stay plain text. Runs after sanitising, building nodes with
 * text only.
 */
import type { Citation } from '../src/core/protocol';
import { el } from './dom';

/** `[1]` or `[2, 3]`, not glued to an identifier or call (`arr[1]`, `f()[0]`) — as the host parses them. */
const MARKER = /(?<![\w$.)\]])\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** A piece of text: plain, or one cited number (`bracketed` when it is the whole `[n]` marker). */
export type CitationPart = string | { n: number; text: string };

/**
 * Splits text at the markers whose numbers are all in `known`: `[1]` becomes one part with text
 * "[1]"; `[2, 3]` becomes "[", 2, ", ", 3, "]". Adjacent plain text is merged.
 */
export function splitCitationMarkers(text: string, known: ReadonlySet<number>): CitationPart[] {
	const parts: CitationPart[] = [];
	const pushText = (t: string) => {
		if (!t) return;
		const last = parts[parts.length - 1];
		if (typeof last === 'string') parts[parts.length - 1] = last + t;
		else parts.push(t);
	};
	let at = 0;
	for (const m of text.matchAll(MARKER)) {
		const numbers = m[1].split(',').map((s) => Number(s.trim()));
		if (!numbers.every((n) => known.has(n))) continue;
		pushText(text.slice(at, m.index));
		if (numbers.length === 1) parts.push({ n: numbers[0], text: m[0] });
		else {
			pushText('[');
			numbers.forEach((n, i) => {
				if (i > 0) pushText(', ');
				parts.push({ n, text: String(n) });
			});
			pushText(']');
		}
		at = m.index + m[0].length;
	}
	pushText(text.slice(at));
	return parts;
}

/** The tooltip and accessible name of a citation: "src/retry.ts:1-20 (retryWithBackoff)". */
export function citationTitle(c: Citation): string {
	return c.uri ? `Open ${c.label}` : c.label;
}

function citationNode(c: Citation, text: string): HTMLElement {
	if (!c.uri) {
		return el(
			'span',
			{
				className: 'citation citation-memory',
				attrs: { title: c.label, 'aria-label': `Citation ${c.n}: ${c.label}`, 'data-n': String(c.n) },
			},
			text,
		);
	}
	return el(
		'a',
		{
			className: 'citation',
			attrs: {
				role: 'link',
				tabindex: '0',
				title: citationTitle(c),
				'aria-label': `Citation ${c.n}: open ${c.label}`,
				'data-action': 'citation-open',
				'data-n': String(c.n),
				'data-uri': c.uri,
				'data-start': c.startLine === null ? '' : String(c.startLine),
				'data-end': c.endLine === null ? '' : String(c.endLine),
			},
		},
		text,
	);
}

/** Text nodes of `root` outside code, pre and links (where a `[1]` is not a citation). */
function textNodes(root: ParentNode): Text[] {
	const out: Text[] = [];
	const walk = (node: Node) => {
		for (const child of Array.from(node.childNodes)) {
			if (child.nodeType === 3) out.push(child as Text);
			else if (child.nodeType === 1 && !['CODE', 'PRE', 'A'].includes((child as Element).tagName)) walk(child);
		}
	};
	walk(root);
	return out;
}

/** Replaces the `[n]` markers of `root` that match `citations` with citation nodes. */
export function linkCitations(root: ParentNode, citations: readonly Citation[] | undefined): void {
	if (!citations?.length) return;
	const byN = new Map(citations.map((c) => [c.n, c]));
	const known = new Set(byN.keys());
	for (const node of textNodes(root)) {
		const parts = splitCitationMarkers(node.data, known);
		if (parts.length === 1 && typeof parts[0] === 'string') continue;
		node.replaceWith(...parts.map((p) => (typeof p === 'string' ? p : citationNode(byN.get(p.n) as Citation, p.text))));
	}
}
