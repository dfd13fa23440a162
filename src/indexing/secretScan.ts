/**
 * Redaction of recognisable secrets inside text that is otherwise indexed. Runs on the whole
 * file before chunking, so no chunk, header, search text or embedding ever sees the value.
 * Replacements keep every newline, so line numbers stay true.
 */

/** The placeholder a secret value is replaced with. */
export const REDACTED = '[REDACTED]';

/** A file's text after redaction, and what was found (kinds only: never the values). */
export interface Redaction {
	text: string;
	found: Record<string, number>;
}

// Private-key blocks: the body is replaced, the BEGIN/END lines stay (they tell a reader what was there).
// An unterminated block is redacted to the end of the text.
const PEM_BLOCK =
	/(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)([\s\S]*?)(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

// Tokens recognisable by their shape alone.
const TOKEN_PATTERNS: ReadonlyArray<readonly [string, RegExp]> = [
	['aws-access-key', /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g],
	['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g],
	['slack-token', /\bxox[abposre]-[A-Za-z0-9-]{10,}/g],
	['openai-key', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g],
	['stripe-key', /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g],
	['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
	['jwt', /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g],
];

// `password = "…"`, `"api_key": '…'`, `DB_PASSWORD := "…"`: a name ending in a secret-sounding word
// (so `tokenizer = "bert"` is left alone), an assignment, then a quoted literal (the value is
// group 3; the quote, group 2, closes it).
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|(?:api|access|auth|secret|private|signing|encryption|master)[_-]?key|apikey|credentials?)`;
const QUOTED_ASSIGNMENT = new RegExp(
	String.raw`(${SECRET_NAME}["']?\s*(?::=|=>|=|:)\s*[bru]?)(["'\x60])((?:(?!\2)[^\\\n]|\\.){1,})\2`,
	'gi',
);
// In config files (ini, yaml, toml, properties…) values are often bare: `password: hunter2`.
const BARE_ASSIGNMENT = new RegExp(
	String.raw`^([ \t]*${SECRET_NAME}[ \t]*[:=][ \t]*)([^\s"'#;][^\n#;]*?)[ \t]*$`,
	'gim',
);
const CONFIG_FILE = /\.(ya?ml|ini|cfg|conf|properties|toml|env)$/i;

// The newlines of a redacted span, so the lines after it keep their numbers.
function keepNewlines(s: string): string {
	return s.replace(/[^\n]+/g, '');
}

/** Redacts secrets in `text`; `relPath` decides whether bare config values count. */
export function redactSecrets(text: string, relPath: string): Redaction {
	const found: Record<string, number> = {};
	const hit = (kind: string) => (found[kind] = (found[kind] ?? 0) + 1);
	let out = text.replace(PEM_BLOCK, (_m, begin: string, body: string, end: string) => {
		hit('private-key');
		return `${begin}${REDACTED}${keepNewlines(body)}${end}`;
	});
	for (const [kind, re] of TOKEN_PATTERNS) {
		out = out.replace(re, () => {
			hit(kind);
			return REDACTED;
		});
	}
	out = out.replace(QUOTED_ASSIGNMENT, (m, lhs: string, quote: string, value: string) => {
		if (value === REDACTED || isPlaceholder(value)) return m;
		hit('assignment');
		return `${lhs}${quote}${REDACTED}${quote}`;
	});
	if (CONFIG_FILE.test(relPath)) {
		out = out.replace(BARE_ASSIGNMENT, (m, lhs: string, value: string) => {
			if (value === REDACTED || isPlaceholder(value)) return m;
			hit('assignment');
			return `${lhs}${REDACTED}`;
		});
	}
	return { text: out, found };
}

// Values that are clearly not secrets: template references and obvious placeholders.
function isPlaceholder(value: string): boolean {
	return /^\$\{?[A-Za-z_][\w.]*\}?$|^\{\{.*\}\}$|^<[^>]*>$|^(x+|\*+|\.+|changeme|your[_-].*|example|none|null|true|false)$/i.test(
		value.trim(),
	);
}
