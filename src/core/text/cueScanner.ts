/**
 * A token-indexed prefilter for cue regexes. Most cues are whole-word phrase lists
 * (`\b(?:squiggl\w*|problems? (?:panel|tab)|…)`) and most turns contain none of their phrases, yet a
 * regex scan tries every alternative at every position of the text. Here each cue is analysed once,
 * at module load, into the short literal keys (1–3 characters) a match must start with at a word
 * start ("squ", "pro", …); all keys of all cues go into one index, key → cues. A text is then
 * scanned once — one lookup per word start and key length — into the set of cues that *may* match,
 * and only those run their regex. The regexes stay the definition (declarative cue tables, same
 * matches, same match text): the prefilter only proves a miss.
 *
 * Sound by construction: a cue whose start the analysis cannot pin to literal characters after a
 * word boundary or `^` (a leading class, lookbehind, `i` flag, …) gets no keys and always runs.
 */

/** ASCII word character (what `\b` means without the `i`/`u` subtleties). */
function isWordCode(c: number): boolean {
	return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Keys are 1–3 ASCII characters; packed into one small integer (a Smi), tagged with their length. */
function packKey(s: string): number {
	let k = 0;
	for (let i = 0; i < 3; i++) k = k * 128 + (i < s.length ? s.charCodeAt(i) : 0);
	return k * 4 + s.length;
}

// ── Analysis: the literal keys a match must start with ─────────────────────────────────────────

type Node =
	| { t: 'char'; chars: string[] | null } // null: any character we do not enumerate
	| { t: 'anchor' } // \b or ^: the match may start here only at a word boundary / the text's start
	| { t: 'zero' } // other zero-width assertions ($, \B, lookarounds): ignored (sound)
	| { t: 'seq'; items: Node[] }
	| { t: 'alt'; items: Node[] }
	| { t: 'rep'; node: Node; min: number; max: number };

class Unanalysable extends Error {}

/** A small recursive-descent parser for the regex syntax the cue tables use. */
class Parser {
	private i = 0;
	constructor(private readonly src: string) {}

	parse(): Node {
		const n = this.alt();
		if (this.i < this.src.length) throw new Unanalysable(`unexpected ${this.src[this.i]}`);
		return n;
	}

	private alt(): Node {
		const items = [this.seq()];
		while (this.src[this.i] === '|') {
			this.i++;
			items.push(this.seq());
		}
		return items.length === 1 ? items[0] : { t: 'alt', items };
	}

	private seq(): Node {
		const items: Node[] = [];
		while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
			items.push(this.quantified(this.atom()));
		}
		return { t: 'seq', items };
	}

	private quantified(node: Node): Node {
		const c = this.src[this.i];
		let min: number;
		let max: number;
		if (c === '?') [min, max] = [0, 1];
		else if (c === '*') [min, max] = [0, Infinity];
		else if (c === '+') [min, max] = [1, Infinity];
		else if (c === '{') {
			const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
			if (!m) return node; // a literal "{" (Annex B)
			min = Number(m[1]);
			max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
			this.i += m[0].length - 1;
		} else return node;
		this.i++;
		if (this.src[this.i] === '?') this.i++; // lazy: same language
		return this.quantified({ t: 'rep', node, min, max });
	}

	private atom(): Node {
		const c = this.src[this.i++];
		if (c === '(') return this.group();
		if (c === '[') return this.charClass();
		if (c === '\\') return this.escape(false);
		if (c === '.') return { t: 'char', chars: null };
		if (c === '^') return { t: 'anchor' };
		if (c === '$') return { t: 'zero' };
		if (c === '*' || c === '+' || c === '?') throw new Unanalysable('dangling quantifier');
		return { t: 'char', chars: [c] };
	}

	private group(): Node {
		let zero = false;
		if (this.src[this.i] === '?') {
			const rest = this.src.slice(this.i, this.i + 3);
			if (rest.startsWith('?:')) this.i += 2;
			else if (rest.startsWith('?=') || rest.startsWith('?!')) [this.i, zero] = [this.i + 2, true];
			else if (rest === '?<=' || rest === '?<!') [this.i, zero] = [this.i + 3, true];
			else if (rest.startsWith('?<')) {
				const end = this.src.indexOf('>', this.i);
				if (end < 0) throw new Unanalysable('bad group name');
				this.i = end + 1;
			} else throw new Unanalysable('unknown group');
		}
		const inner = this.alt();
		if (this.src[this.i++] !== ')') throw new Unanalysable('unclosed group');
		return zero ? { t: 'zero' } : inner;
	}

	private charClass(): Node {
		const chars: string[] = [];
		let known = this.src[this.i] !== '^';
		while (this.i < this.src.length && this.src[this.i] !== ']') {
			const first = this.classAtom();
			if (this.src[this.i] === '-' && this.i + 1 < this.src.length && this.src[this.i + 1] !== ']') {
				this.i++;
				this.classAtom();
				known = false; // a range: not enumerated
				continue;
			}
			if (first === null) known = false;
			else chars.push(first);
		}
		if (this.src[this.i++] !== ']') throw new Unanalysable('unclosed class');
		return { t: 'char', chars: known && chars.length > 0 && chars.length <= 8 ? chars : null };
	}

	/** One member of a class: a character, or null for a set (\w, \s, \p{…}). */
	private classAtom(): string | null {
		const c = this.src[this.i++];
		if (c !== '\\') return c;
		const e = this.escape(true);
		return e.t === 'char' && e.chars !== null && e.chars.length === 1 ? e.chars[0] : null;
	}

	/** After a backslash. Inside a class `\b` is a backspace; outside it is the word boundary. */
	private escape(inClass: boolean): Node {
		const c = this.src[this.i++];
		if (c === undefined) throw new Unanalysable('trailing backslash');
		if (c === 'b') return inClass ? { t: 'char', chars: ['\b'] } : { t: 'anchor' };
		if (c === 'B') return { t: 'zero' };
		if ('dDwWsS'.includes(c)) return { t: 'char', chars: null };
		if (c === 'p' || c === 'P') {
			if (this.src[this.i] === '{') this.i = this.src.indexOf('}', this.i) + 1;
			return { t: 'char', chars: null };
		}
		if (c === 'n') return { t: 'char', chars: ['\n'] };
		if (c === 't') return { t: 'char', chars: ['\t'] };
		if (c === 'r') return { t: 'char', chars: ['\r'] };
		if (c === 'f') return { t: 'char', chars: ['\f'] };
		if (c === 'v') return { t: 'char', chars: ['\v'] };
		if (c === 'x') return this.hex(2);
		if (c === 'u') {
			if (this.src[this.i] === '{') {
				const end = this.src.indexOf('}', this.i);
				const code = parseInt(this.src.slice(this.i + 1, end), 16);
				this.i = end + 1;
				return { t: 'char', chars: [String.fromCodePoint(code)] };
			}
			return this.hex(4);
		}
		if (c === 'c') {
			this.i++;
			return { t: 'char', chars: null };
		}
		if (c === 'k') {
			this.i = this.src.indexOf('>', this.i) + 1;
			return { t: 'rep', node: { t: 'char', chars: null }, min: 0, max: Infinity };
		}
		// A back-reference can match anything, the empty string included.
		if (c >= '0' && c <= '9') {
			while (this.src[this.i] >= '0' && this.src[this.i] <= '9') this.i++;
			return { t: 'rep', node: { t: 'char', chars: null }, min: 0, max: Infinity };
		}
		return { t: 'char', chars: [c] };
	}

	private hex(n: number): Node {
		const code = parseInt(this.src.slice(this.i, this.i + n), 16);
		this.i += n;
		return { t: 'char', chars: [String.fromCharCode(code)] };
	}
}

/**
 * A partial match start: the characters known so far (`s`, at most 3), whether a word boundary or
 * `^` came before the first of them, and whether more characters may still be appended (`open`).
 */
interface Start {
	s: string;
	anchored: boolean;
	open: boolean;
}

const MAX_STATES = 4096;

function stateKey(x: Start): string {
	return `${x.open ? 1 : 0}${x.anchored ? 1 : 0}${x.s}`;
}

function dedupe(states: Start[]): Start[] {
	const seen = new Map<string, Start>();
	for (const x of states) seen.set(stateKey(x), x);
	if (seen.size > MAX_STATES) throw new Unanalysable('too many starts');
	return [...seen.values()];
}

function close(states: Start[]): Start[] {
	return states.map((x) => (x.open ? { ...x, open: false } : x));
}

/** The starts after `node`, from the starts before it. */
function step(node: Node, states: Start[]): Start[] {
	switch (node.t) {
		case 'zero':
			return states;
		case 'anchor':
			return states.map((x) => (x.open && x.s === '' ? { ...x, anchored: true } : x));
		case 'seq': {
			let out = states;
			for (const item of node.items) out = step(item, out);
			return out;
		}
		case 'alt':
			return dedupe(node.items.flatMap((item) => step(item, states)));
		case 'rep': {
			if (node.max === 0) return states;
			const once = step(node.node, states);
			// One more repetition may follow: what is known after one is a prefix, so close it.
			const after = node.max === 1 ? once : close(once);
			if (node.min === 0) return dedupe([...states, ...after]);
			return node.min === 1 ? after : close(after);
		}
		case 'char': {
			const out: Start[] = [];
			for (const x of states) {
				if (!x.open) {
					out.push(x);
					continue;
				}
				if (x.s === '') {
					// The first character: it must be a literal word character right after \b or ^.
					if (!x.anchored || node.chars === null) throw new Unanalysable('unanchored or unknown first character');
					for (const c of node.chars) {
						if (c.length !== 1 || !isWordCode(c.charCodeAt(0))) throw new Unanalysable('first character not a word character');
						out.push({ s: c, anchored: true, open: true });
					}
					continue;
				}
				if (node.chars === null) {
					out.push({ ...x, open: false });
					continue;
				}
				for (const c of node.chars) {
					// Keys hold ASCII only: a key stops before anything else.
					if (c.length !== 1 || c.charCodeAt(0) >= 128) out.push({ ...x, open: false });
					else {
						const s = x.s + c;
						out.push({ s, anchored: true, open: s.length < 3 });
					}
				}
			}
			return dedupe(out);
		}
	}
}

/**
 * The keys one of which every match of `re` starts with, at a word start of the text; null when
 * the regex cannot be prefiltered (it then always runs).
 */
export function leadKeys(re: RegExp): string[] | null {
	if (re.flags.includes('i')) return null;
	try {
		const states = step(new Parser(re.source).parse(), [{ s: '', anchored: false, open: true }]);
		const keys = new Set<string>();
		for (const x of states) {
			if (x.s === '') return null; // can match without a leading word character
			keys.add(x.s);
		}
		return [...keys].sort();
	} catch (e) {
		if (e instanceof Unanalysable) return null;
		throw e;
	}
}

// ── Index and scan ──────────────────────────────────────────────────────────────────────────────

/** key → ids of the cues that may start with it. */
const INDEX = new Map<number, number[]>();
/** Which key lengths exist at all (a length no cue uses is not looked up). */
const HAS_LENGTH = [false, false, false, false];
let registered = 0;

/** Registers a cue; returns its id, or -1 when it cannot be prefiltered (always run it). */
export function registerCue(re: RegExp): number {
	const keys = leadKeys(re);
	if (keys === null) return -1;
	const id = registered++;
	for (const k of keys) {
		const packed = packKey(k);
		const ids = INDEX.get(packed);
		if (ids) ids.push(id);
		else INDEX.set(packed, [id]);
		HAS_LENGTH[k.length] = true;
	}
	return id;
}

/** The cues that may match `text`: one flag per registered id. */
function scan(text: string): Uint8Array {
	const hits = new Uint8Array(registered);
	const n = text.length;
	let prevWord = false;
	for (let p = 0; p < n; p++) {
		const c0 = text.charCodeAt(p);
		const word = isWordCode(c0);
		if (!word || prevWord) {
			prevWord = word;
			continue;
		}
		prevWord = true;
		let k = c0;
		for (let len = 1; len <= 3; len++) {
			if (len > 1) {
				const c = p + len - 1 < n ? text.charCodeAt(p + len - 1) : 128;
				if (c >= 128) break;
				k = k * 128 + c;
			}
			if (!HAS_LENGTH[len]) continue;
			const ids = INDEX.get(k * (len === 1 ? 16384 : len === 2 ? 128 : 1) * 4 + len);
			if (ids) for (const id of ids) hits[id] = 1;
		}
	}
	return hits;
}

// The texts a decision scans (its text, core and raw forms, a few earlier turns) recur across
// the stages: the last few scans are kept, looked up by the text itself.
const RING = 8;
const ringText: (string | null)[] = new Array<string | null>(RING).fill(null);
const ringHits: Uint8Array[] = new Array<Uint8Array>(RING);
let ringAt = 0;

function hitsOf(text: string): Uint8Array {
	for (let i = 0; i < RING; i++) if (ringText[i] === text && ringHits[i].length === registered) return ringHits[i];
	const hits = scan(text);
	ringText[ringAt] = text;
	ringHits[ringAt] = hits;
	ringAt = (ringAt + 1) % RING;
	return hits;
}

/** False only when the cue `id` (from registerCue) provably cannot match `text`. */
export function mayMatch(id: number, text: string): boolean {
	if (id < 0) return true;
	const hits = hitsOf(text);
	return id >= hits.length || hits[id] === 1;
}

/**
 * A regex that answers `test` through the prefilter first and then its own scan; everything else
 * (exec, replace, match, source) is the regex itself. Global and sticky regexes are not wrapped
 * (their lastIndex state would be skipped by a prefiltered miss).
 */
export class PrefilteredRegExp extends RegExp {
	private readonly cueId: number;
	private readonly plain: RegExp;

	constructor(re: RegExp) {
		super(re.source, re.flags);
		this.plain = new RegExp(re.source, re.flags);
		this.cueId = re.global || re.sticky ? -1 : registerCue(re);
	}

	override test(text: string): boolean {
		return mayMatch(this.cueId, text) && this.plain.test(text);
	}

	/** True when the prefilter applies (for tests and the docs' counts). */
	get prefiltered(): boolean {
		return this.cueId >= 0;
	}
}

/** The regex wrapped with the prefilter (a global or sticky one is returned as is). */
export function prefiltered(re: RegExp): RegExp {
	return re.global || re.sticky ? re : new PrefilteredRegExp(re);
}

/**
 * A module namespace of cue constants with every (non-global) regex wrapped, regexes inside
 * `[name, RegExp]` tables included; other values pass through. For `import * as C` consumers, so
 * the cue tables themselves stay plain declarative data.
 */
export function prefilterCues<T extends object>(cues: T): T {
	const out: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(cues)) {
		if (value instanceof RegExp) out[name] = prefiltered(value);
		else if (Array.isArray(value) && value.every((e) => Array.isArray(e) && e[1] instanceof RegExp))
			out[name] = value.map((e: unknown[]) => [e[0], prefiltered(e[1] as RegExp), ...e.slice(2)]);
		else out[name] = value;
	}
	return out as T;
}
