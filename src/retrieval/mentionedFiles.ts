/**
 * Files a long report names (issue 15, SWE-bench Lite swe-dev): a bug report often says where the
 * code is — `django.db.models.query`, `from sympy.core.basic import Basic`, `astropy/io/ascii/qdp.py`,
 * `ascii.qdp`, a traceback's paths — and a dotted module path or a printed path is a path suffix of
 * the indexed file. Pure: the mentions are parsed from the text, the probe names go to the store
 * (pathsNamed, by file name), and the candidates come back here to be matched and ranked.
 */

/** One path-like mention: its segments (extension dropped), whether it was a file, how often it occurs. */
export interface PathMention {
	segments: string[];
	/** Written as a path with an extension (`qdp.py`, `sympy/core/expr.py`), not a dotted module name. */
	file: boolean;
	count: number;
	/** Offset of its first occurrence. */
	at: number;
}

// A printed path with an extension, or a dotted name whose first segment is lower case (a module).
const FILE_PATH = /(?:[A-Za-z0-9_.-]+[/\\])*[A-Za-z0-9_-][A-Za-z0-9_.-]*\.([A-Za-z][A-Za-z0-9]{0,4})\b/g;
const DOTTED = /(?<![\w.$/\\-])[a-z_][a-z0-9_]*(?:\.[A-Za-z0-9_]+)+/g;
const CODE_EXT = /^(py|pyi|pyx|js|mjs|cjs|jsx|ts|tsx|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|scala|swift)$/;
// Files that are not modules (notes.txt, setup.cfg): neither a code path nor a dotted module name.
const DATA_EXT =
	/^(txt|md|rst|json|ya?ml|toml|cfg|ini|csv|tsv|html?|xml|png|jpe?g|gif|svg|pdf|log|lock|zip|gz|tar|whl|egg|so|dll|exe|bin|dat|npy|npz|pkl|db|sqlite3?|com|org|net|io)$/i;

/** The path-like mentions of a text, most frequent first (then first seen), at most `max`. */
export function pathMentions(text: string, max: number): PathMention[] {
	const byKey = new Map<string, PathMention>();
	const add = (segments: string[], file: boolean, at: number) => {
		if (!segments.length) return;
		const key = `${file ? 'f' : 'm'}:${segments.join('/')}`;
		const m = byKey.get(key);
		if (m) m.count++;
		else byKey.set(key, { segments, file, count: 1, at });
	};
	const fileSpans: [number, number][] = [];
	for (const m of text.matchAll(FILE_PATH)) {
		const at = m.index ?? 0;
		if (DATA_EXT.test(m[1])) fileSpans.push([at, at + m[0].length]);
		if (!CODE_EXT.test(m[1])) continue;
		fileSpans.push([at, at + m[0].length]);
		const segs = m[0].split(/[/\\]/).filter((s) => s && s !== '.' && s !== '..');
		segs[segs.length - 1] = segs[segs.length - 1].replace(/\.[^.]+$/, '');
		add(segs, true, at);
	}
	for (const m of text.matchAll(DOTTED)) {
		const at = m.index ?? 0;
		if (fileSpans.some(([a, b]) => at >= a && at < b)) continue;
		// The module part: the leading segments that look like module names (lower case or digits first).
		const segs: string[] = [];
		for (const s of m[0].split('.')) {
			if (!/^[a-z0-9_]/.test(s)) break;
			segs.push(s);
		}
		if (segs.length >= 2) add(segs, false, at);
	}
	return [...byKey.values()].sort((a, b) => b.count - a.count || a.at - b.at).slice(0, max);
}

/** File names to look up for the mentions: each module segment after the first, with each extension. */
export function mentionProbeNames(mentions: readonly PathMention[], exts: readonly string[], max: number): string[] {
	const out = new Set<string>();
	for (const m of mentions) {
		if (m.file) {
			const last = m.segments[m.segments.length - 1];
			for (const e of exts) out.add(`${last}.${e}`);
			continue;
		}
		for (let i = m.segments.length - 1; i >= 1; i--) for (const e of exts) out.add(`${m.segments[i]}.${e}`);
		// A package named whole (django.contrib.auth) is its __init__.
		for (const e of exts) out.add(`__init__.${e}`);
	}
	return [...out].slice(0, max);
}

/** A file the report names, with how strongly. */
export interface MentionedFile {
	path: string;
	/** Path segments the best mention shares with it (file name included). */
	segments: number;
	/** Distinct mentions that resolve to it (their occurrences summed). */
	mentions: number;
	at: number;
}

const stem = (p: string) => {
	const segs = p.split('/');
	segs[segs.length - 1] = segs[segs.length - 1].replace(/\.[^.]+$/, '');
	if (segs.length > 1 && segs[segs.length - 1] === '__init__') segs.pop();
	return segs;
};

/**
 * Resolves each mention to the indexed files it names: the deepest module prefix that is a file
 * (`django.db.models.query.QuerySet` → db/models/query.py, not db/models/__init__.py), matched as a
 * path suffix of at least two segments; a file name alone only when one indexed file has it.
 * Files ranked by the number of mentions, then by matched segments, then by first mention.
 */
export function matchMentionedFiles(mentions: readonly PathMention[], paths: readonly string[]): MentionedFile[] {
	const stems = paths.map((p) => ({ p, s: stem(p) }));
	const byName = new Map<string, number>();
	for (const { s } of stems) byName.set(s[s.length - 1], (byName.get(s[s.length - 1]) ?? 0) + 1);
	const out = new Map<string, MentionedFile>();
	for (const m of mentions) {
		let best: { k: number; n: number; files: string[] } | null = null;
		for (const { p, s } of stems) {
			for (let k = m.segments.length; k >= 1; k--) {
				if (best && k < best.k) break;
				if (m.segments[k - 1] !== s[s.length - 1]) continue;
				let n = 0;
				while (n < k && n < s.length && m.segments[k - 1 - n] === s[s.length - 1 - n]) n++;
				// Two segments (package/file), the whole indexed path, or a file name no other file has.
				const unique = m.file && k === m.segments.length && byName.get(s[s.length - 1]) === 1;
				if (n < 2 && n < s.length && !unique) continue;
				if (!best || k > best.k || n > best.n) best = { k, n, files: [p] };
				else if (k === best.k && n === best.n) best.files.push(p);
				break;
			}
		}
		if (!best) continue;
		for (const p of best.files) {
			const f = out.get(p) ?? { path: p, segments: 0, mentions: 0, at: m.at };
			f.segments = Math.max(f.segments, best.n);
			f.mentions += m.count;
			f.at = Math.min(f.at, m.at);
			out.set(p, f);
		}
	}
	return [...out.values()].sort((a, b) => b.mentions - a.mentions || b.segments - a.segments || a.at - b.at);
}
