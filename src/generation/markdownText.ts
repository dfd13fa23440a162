/**
 * Writing untrusted text into Markdown so it renders literally: one-line text (paths, symbols, a
 * quoted message) escaped, and code under a fence it cannot close. Used by the evidence-only
 * replies and the decision text the host writes.
 */

/** Escapes the characters Markdown would interpret, so untrusted one-line text stays literal. */
export function escapeMarkdown(text: string): string {
	return text.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}

/** A fence longer than any backtick run in `text`, so quoted code can never close its own block. */
export function fenceFor(text: string): string {
	const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
	return '`'.repeat(Math.max(3, longest + 1));
}
