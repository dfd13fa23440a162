/**
 * The identifiers a turn names, for the symbol arm (issue 15 item 2). Pure: text in, candidates
 * out. How an identifier is written says how sure we are that it is one: `send_file`, `sendFile`,
 * `res.sendFile`, `Context.invoke()` or a `backticked` name are code; a capitalised word mid-
 * sentence (`Command`) is probably a type; two plain words (`send file`) may be a snake/camel name
 * split apart; a lone plain word (`flatten`) is the weakest guess. Matching is case- and
 * underscore-insensitive (normalizeSymbol), so every spelling of one name meets the same row.
 */
import { normalizeSymbol } from '../store/chunkRepo';

/** How the identifier was written, strongest first. */
export type IdentifierStrength = 'code' | 'name' | 'joined' | 'word';

/** One identifier the turn may mean. */
export interface QueryIdentifier {
	/** As written (`res.sendFile`, `send file`). */
	raw: string;
	/** Normalised last segment: what the symbol table is probed with. */
	leaf: string;
	/** Normalised segments before the leaf (`res`, `context`): matched against containers and paths. */
	qualifiers: string[];
	strength: IdentifierStrength;
}

/** What the turn names: identifiers, and file names (`helpers.py`) for the file priors. */
export interface TurnIdentifiers {
	identifiers: QueryIdentifier[];
	files: string[];
}

// English words that are never worth probing the symbol table with (questions' glue words).
const STOP = new Set(
	(
		'a an the and or but if then else of to in on at by for with from about into over as so just also very some any all no not only ' +
		'is are was were be been being do does did done have has had can could would should will shall may might must ' +
		'i me my we our us you your it its this that these those there here what which who whom how why when where ' +
		'please thanks thank hi hello hey show tell give explain find help want need know get let make like look see use using used ' +
		'one ok okay way work works working happen happens there their them they instead right now still even again'
	).split(' '),
);

// Words about code rather than names in it: they may be half of a split name (send file →
// send_file) but never a probe on their own.
const GENERIC = new Set(
	(
		'implemented implement implementation defined define definition code function functions method methods class classes ' +
		'file files module package line lines error errors fail fails failing failed test tests issue bug wrong call called calls'
	).split(' '),
);

const FILE_EXT =
	/\.(py|pyi|js|mjs|cjs|jsx|ts|tsx|go|rs|java|kt|cs|c|h|cc|cpp|hpp|rb|php|md|rst|txt|json|toml|ya?ml|cfg|ini|html|css)$/i;
const TOKEN =
	/`([^`\n]{1,80})`|((?:[\w.$-]+\/)+[\w.$-]+|[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#|->)[A-Za-z_$][A-Za-z0-9_$]*)*)(\(\))?/g;
const SEGMENTS = /\.|::|#|->/;

function isCodeShaped(t: string, called: boolean): boolean {
	return (
		called || /_/.test(t.replace(/^_+|_+$/g, '')) || /^__\w+__$/.test(t) || /[a-z0-9][A-Z]/.test(t) || SEGMENTS.test(t)
	);
}

function identifier(raw: string, strength: IdentifierStrength): QueryIdentifier | null {
	const segs = raw.split(SEGMENTS).filter(Boolean);
	const leaf = normalizeSymbol(segs[segs.length - 1] ?? '');
	if (leaf.length < 2) return null;
	return { raw, leaf, qualifiers: segs.slice(0, -1).map(normalizeSymbol).filter(Boolean), strength };
}

/** The identifiers and file names in a turn, strongest first, one entry per (leaf, qualifiers). */
export function turnIdentifiers(text: string, maxWordPairs = 6): TurnIdentifiers {
	const out: QueryIdentifier[] = [];
	const files: string[] = [];
	const words: { w: string; at: number }[] = [];
	let sentenceStart = true;
	for (const m of text.matchAll(TOKEN)) {
		const quoted = m[1];
		const tok = (quoted ?? m[2]).replace(/\(\)$/, '').trim();
		const at = m.index ?? 0;
		const before = text.slice(Math.max(0, at - 2), at);
		const startsSentence = sentenceStart || /[.!?]\s*$/.test(before) || at === 0;
		sentenceStart = false;
		if (!tok) continue;
		if (FILE_EXT.test(tok) || /[/\\]/.test(tok)) {
			files.push(tok);
			continue;
		}
		if (quoted !== undefined) {
			// A quoted name may hold a call or a path expression: take its first identifier.
			const inner = /[A-Za-z_$][A-Za-z0-9_$]*(?:(?:\.|::|#|->)[A-Za-z_$][A-Za-z0-9_$]*)*/.exec(tok);
			const id = inner ? identifier(inner[0], 'code') : null;
			if (id) out.push(id);
			continue;
		}
		if (isCodeShaped(tok, m[3] !== undefined)) {
			const id = identifier(tok, 'code');
			if (id) out.push(id);
			continue;
		}
		const lower = tok.toLowerCase();
		if (STOP.has(lower)) {
			words.push({ w: '', at });
			continue;
		}
		if (/^[A-Z][a-z0-9]+[A-Za-z0-9]*$/.test(tok) && !startsSentence) {
			const id = identifier(tok, 'name');
			if (id) out.push(id);
		}
		words.push({ w: lower, at });
	}
	// Adjacent content words ("send file") may be one name split apart (send_file, sendFile).
	let pairs = 0;
	for (let i = 0; i + 1 < words.length && pairs < maxWordPairs; i++) {
		if (!words[i].w || !words[i + 1].w) continue;
		const id = identifier(words[i].w + words[i + 1].w, 'joined');
		if (id) {
			out.push({ ...id, raw: `${words[i].w} ${words[i + 1].w}` });
			pairs++;
		}
	}
	for (const { w } of words) {
		if (w.length >= 4 && !GENERIC.has(w)) {
			const id = identifier(w, 'word');
			if (id) out.push(id);
		}
	}
	const seen = new Set<string>();
	const order: IdentifierStrength[] = ['code', 'name', 'joined', 'word'];
	const identifiers = out
		.map((id, i) => ({ id, i }))
		.sort((a, b) => order.indexOf(a.id.strength) - order.indexOf(b.id.strength) || a.i - b.i)
		.map((x) => x.id)
		.filter((id) => {
			const key = [id.leaf, ...id.qualifiers].join('.');
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
	return { identifiers, files: [...new Set(files)] };
}
