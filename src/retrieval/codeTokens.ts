/**
 * Code-aware tokenisation for the full-text arm. Postgres' parser keeps `getUserName` and
 * `src/foo/bar.py` as single tokens, so a query for "user name" would never match them; we append
 * the split parts of every identifier and path to the indexed text (and to the query), keeping the
 * original too so an exact identifier still matches.
 */

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*(?:[./\\-][A-Za-z0-9_$]+)*/g;

/** Splits one identifier or path into lower-case words: getHTTPResponse_code → get http response code. */
export function splitIdentifier(ident: string): string[] {
	return ident
		.replace(/([a-z0-9])([A-Z])/g, '$1 $2')
		.replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.split(/[^A-Za-z0-9]+/)
		.filter((w) => w.length > 0)
		.map((w) => w.toLowerCase());
}

/** The words of a text: each identifier's parts, lower-cased. Used by the hashing test embedder too. */
export function codeTokens(text: string): string[] {
	const out: string[] = [];
	for (const m of text.matchAll(IDENT)) out.push(...splitIdentifier(m[0]));
	return out;
}

/**
 * The text the full-text arm indexes for a chunk (or searches for a query): the original text,
 * then the split parts of every compound identifier and of the path.
 */
export function searchTextFor(text: string, path?: string | null): string {
	const extra = new Set<string>();
	for (const m of text.matchAll(IDENT)) {
		// Postgres already splits snake_case; only camelCase, dotted names and paths need help.
		if (!/[a-z0-9][A-Z]|[./\\-]/.test(m[0])) continue;
		const parts = splitIdentifier(m[0]);
		if (parts.length > 1) extra.add(parts.join(' '));
	}
	if (path) extra.add(splitIdentifier(path).join(' '));
	return extra.size ? `${text}\n${[...extra].join('\n')}` : text;
}
