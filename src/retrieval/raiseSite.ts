/**
 * The raising site of a pasted error (issue 15 item 4a). A traceback is often cut short — only
 * the last line, or frames that stop at the caller (`yaml/__init__.py … return load(…)` for an
 * error raised in constructor.py) — and then no frame names the code that raised it. The error's
 * message is the code's own string literal with values substituted, so its literal runs of words
 * (`could not determine a constructor for the tag`) find the `raise` / `throw` / `errors.New`
 * that wrote it. Pure: message in, phrases out; chunks in, a ranked list and a verdict out.
 */
import { fileKind } from './filePriors';

/** A chunk that contains some of the message's phrases. */
export interface PhraseChunk {
	chunk_pk: string;
	path: string | null;
	content: string;
	/** Indexes (into the phrases given) of the phrases the chunk contains. */
	matched: readonly number[];
}

/** A raising-site candidate with its score (words of the phrases it holds, more with a raise). */
export interface RaiseSite<C extends PhraseChunk = PhraseChunk> {
	chunk: C;
	score: number;
	raises: boolean;
}

// Values substituted into a message: quoted spans, brackets and parentheses holding digits or
// quotes, and any token with a digit (line numbers, versions, positions).
const VALUE_SPAN = /'[^']*'|"[^"]*"|`[^`]*`|«[^»]*»|\[[^\]]*\]|\([^)]*[\d'"][^)]*\)|\S*\d\S*/g;
const WORD = /[A-Za-z][A-Za-z'/_-]*/g;

/** Statements that raise, throw or build an error in the languages the indexer chunks. */
export const RAISES =
	/\b(raise|throw|panic|Errorf|errors\.New|bail!|anyhow!|Err\(|fail|reject|warn|abort)\b|new [A-Z]\w*(Error|Exception)\b/;

/**
 * The message's literal phrases: what is left between substituted values and colons, with at
 * least `minWords` words one of which has 4 letters or more; longest first, at most `max`.
 */
export function messagePhrases(message: string | null, minWords: number, max: number): string[] {
	if (!message) return [];
	let m = message.trim();
	// KeyError and friends print the repr of their argument: "\"Unsupported date/time field 'b'\"".
	const wrapped = /^(["'])(.*)\1$/.exec(m);
	if (wrapped) m = wrapped[2];
	// Rust's Debug of an error prints its message quoted inside the type: Error("key must be a string", line: 0, …).
	const debug = /^[A-Z]\w*\(\s*"((?:[^"\\]|\\.)*)"/.exec(m);
	if (debug) m = debug[1];
	const parts = m
		.replace(VALUE_SPAN, '\n')
		.split(/\n|:\s|;\s|\s[-–—]\s/)
		.map((p) => (p.match(WORD) ?? []).join(' '))
		.filter((p) => {
			const words = p.split(' ').filter(Boolean);
			return words.length >= minWords && words.some((w) => w.length >= 4);
		});
	return [...new Set(parts)].sort((a, b) => b.split(' ').length - a.split(' ').length).slice(0, max);
}

/**
 * Ranks the chunks holding the phrases: the words of the phrases each holds — twice when the
 * chunk holds a phrase as written (a string literal), not only as the words of an identifier
 * (`KeyMustBeAString` is indexed as "key must be a string" too) — × 1.5 when it also raises (a test
 * asserting the message holds it too, without the raise). Only implementation files (tests, docs
 * and changelogs quote messages; they do not raise them). Best first, ties by path.
 */
export function rankRaiseSites<C extends PhraseChunk>(
	phrases: readonly string[],
	chunks: readonly C[],
): RaiseSite<C>[] {
	const words = phrases.map((p) => p.split(' ').length);
	const flat = (text: string) => text.toLowerCase().replace(/[^a-z0-9/_'-]+/g, ' ');
	return chunks
		.filter((c) => fileKind(c.path) === 'implementation' && c.matched.length > 0)
		.map((chunk) => {
			const raises = RAISES.test(chunk.content);
			const text = flat(chunk.content);
			const held = [...new Set(chunk.matched)].reduce(
				(s, i) => s + (words[i] ?? 0) * (phrases[i] && text.includes(flat(phrases[i]).trim()) ? 2 : 1),
				0,
			);
			return { chunk, raises, score: held * (raises ? 1.5 : 1) };
		})
		.sort((a, b) => b.score - a.score || (a.chunk.path ?? '').localeCompare(b.chunk.path ?? ''));
}

/** The source line `line` (1-based, in the file) of a chunk that starts at `startLine`; null outside it. */
export function lineOf(content: string, startLine: number | null, line: number): string | null {
	if (startLine === null) return null;
	const lines = content.split('\n');
	const i = line - startLine;
	return i >= 0 && i < lines.length ? lines[i] : null;
}

/**
 * Whether the frames reach the raise: the innermost workspace frame's own line raises. When it
 * does not (the trace was cut at a caller, or no frame is in the workspace) the raising site is
 * somewhere the frames do not name, and it goes before them.
 */
export function framesReachRaise(
	innermost: { content: string; start_line: number | null; line: number } | null,
): boolean {
	if (!innermost) return false;
	const text = lineOf(innermost.content, innermost.start_line, innermost.line);
	return text !== null && RAISES.test(text);
}
