/**
 * The symbol arm (issue 15 item 2): the turn's identifiers (queryIdentifiers) probe the symbol
 * table; definitions rank first — by how the name was written, then by whether its qualifier
 * (`Context.` in `Context.invoke`, `res.` in `res.sendFile`) matches the definition's container or
 * path — and chunks of the other arms that mention a code-shaped name follow. The ranking is a
 * pure function (rankSymbolMatches) so it can be tested without a store.
 */
import type { ArmRow, SearchScope } from '../store/searchQueries';
import type { Queryable } from '../store/queryable';
import { normalizeSymbol } from '../store/chunkRepo';
import { fileKind } from './filePriors';
import { symbolDefinitions, type SymbolRow } from '../store/symbolSearch';
import type { QueryIdentifier, IdentifierStrength } from './queryIdentifiers';
import type { RetrievalTuning } from './retrievalThresholds';

/** One entry of the arm's ranked list. */
export interface SymbolMatch {
	row: ArmRow;
	/** definition: the chunk where the named definition starts; mention: a chunk that uses the name. */
	match: 'definition' | 'mention';
	/** The definition's qualified name (definitions) or the name mentioned. */
	name: string;
	/** The identifier as the turn wrote it. */
	raw: string;
	strength: IdentifierStrength;
	/** Ranking score (definitions only; mentions keep their other-arm order). */
	score: number;
	/** The definition's first line (definitions), else the chunk's. */
	line: number | null;
}

const STRENGTH_SCORE: Readonly<Record<IdentifierStrength, number>> = { code: 4, name: 3, joined: 2, word: 1 };

function pathSegments(path: string | null): Set<string> {
	if (!path) return new Set();
	return new Set(path.split('/').map((p) => normalizeSymbol(p.replace(/\.[^.]+$/, ''))));
}

function definitionScore(id: QueryIdentifier, row: SymbolRow): number {
	let score = STRENGTH_SCORE[id.strength];
	const containers = row.norm_name.split('.').slice(0, -1);
	const paths = pathSegments(row.path);
	for (const q of id.qualifiers) {
		if (containers.includes(q)) score += 2;
		else if (paths.has(q)) score += 1;
	}
	// Exactly as written (send_file, not SendFile) is a little more likely the one meant.
	const leafAsWritten = id.raw.split(/\.|::|#|->/).pop() ?? '';
	if (row.def_name.split(/\.|::/).pop() === leafAsWritten) score += 0.5;
	return score;
}

/**
 * Ranks definitions for the identifiers, then mentions among `others` (other arms' candidates, in
 * their order). One entry per chunk (its best match). Plain words and word pairs only count when
 * few definitions carry them (`symbol_word_max_defs`).
 */
export function rankSymbolMatches(
	ids: readonly QueryIdentifier[],
	defs: readonly SymbolRow[],
	others: readonly ArmRow[],
	t: RetrievalTuning,
): SymbolMatch[] {
	const byLeaf = new Map<string, SymbolRow[]>();
	for (const d of defs) byLeaf.set(d.norm_leaf, [...(byLeaf.get(d.norm_leaf) ?? []), d]);
	const best = new Map<string, SymbolMatch>();
	for (const id of ids) {
		const rows = byLeaf.get(id.leaf) ?? [];
		if ((id.strength === 'word' || id.strength === 'joined') && rows.length > t.symbol_word_max_defs) continue;
		for (const row of rows) {
			const score = definitionScore(id, row);
			const prev = best.get(row.chunk_pk);
			if (!prev || score > prev.score)
				best.set(row.chunk_pk, {
					row,
					match: 'definition',
					name: row.def_name,
					raw: id.raw,
					strength: id.strength,
					score,
					line: row.def_start,
				});
		}
	}
	const definitions = [...best.values()].sort(
		(a, b) =>
			b.score - a.score ||
			// A stub re-declares what the implementation defines: of two equal definitions the code comes first.
			Number(fileKind(a.row.path) === 'stub') - Number(fileKind(b.row.path) === 'stub') ||
			(a.row.path ?? '').localeCompare(b.row.path ?? '') ||
			(a.row.start_line ?? 0) - (b.row.start_line ?? 0),
	);
	const named = ids.filter((id) => id.strength === 'code' || id.strength === 'name');
	const mentions: SymbolMatch[] = [];
	if (named.length) {
		const leaves = new Set(named.map((n) => n.leaf));
		// A chunk found by two arms is read once: the same text gives the same answer.
		const seen = new Set<string>();
		for (const row of others) {
			if (best.has(row.chunk_pk) || seen.has(row.chunk_pk)) continue;
			seen.add(row.chunk_pk);
			const found = mentionedLeaves(row.content, leaves);
			const id = found.size ? named.find((n) => found.has(n.leaf)) : undefined;
			if (id)
				mentions.push({
					row,
					match: 'mention',
					name: id.raw,
					raw: id.raw,
					strength: id.strength,
					score: 0,
					line: row.start_line,
				});
		}
	}
	return [...definitions, ...mentions];
}

/**
 * Which of `leaves` (normalised leaves) a chunk's text names: its code-shaped words, normalised as
 * the symbol table's names are. Only a word whose length could normalise to a leaf's is
 * normalised (normalising drops `_` and `$`, never adds), and the scan stops once every leaf
 * was found.
 */
export function mentionedLeaves(text: string, leaves: ReadonlySet<string>): Set<string> {
	const found = new Set<string>();
	// A word that normalises to a leaf leaves it as a substring of the whole text normalised: most
	// chunks contain none of the leaves and need no word scan.
	const flat = normalizeSymbol(text);
	const wanted = new Set([...leaves].filter((l) => flat.includes(l)));
	if (!wanted.size) return found;
	let shortest = Infinity;
	for (const l of wanted) shortest = Math.min(shortest, l.length);
	for (const m of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
		const w = m[0];
		if (w.length < shortest) continue;
		const n = normalizeSymbol(w);
		if (wanted.has(n) && !found.has(n)) {
			found.add(n);
			if (found.size === wanted.size) break;
		}
	}
	return found;
}

/** The names probed for a turn: strongest first, at most `symbol_max_probes`. */
export function probedIdentifiers(ids: readonly QueryIdentifier[], t: RetrievalTuning): QueryIdentifier[] {
	return ids.slice(0, t.symbol_max_probes);
}

/**
 * How many definitions to read per leaf: `symbol_defs_per_name` for a name written as code or as a
 * name; for a leaf probed only as a word or joined words, one more than `symbol_word_max_defs` —
 * rankSymbolMatches drops such a leaf once it has more definitions than that, so more rows are
 * never used (the rows read are the first of the same order, so the ranking is unchanged).
 */
export function definitionLimits(probed: readonly QueryIdentifier[], t: RetrievalTuning): Map<string, number> {
	const wordCap = Math.min(t.symbol_defs_per_name, t.symbol_word_max_defs + 1);
	const limits = new Map<string, number>();
	for (const id of probed) {
		const cap = id.strength === 'word' || id.strength === 'joined' ? wordCap : t.symbol_defs_per_name;
		limits.set(id.leaf, Math.max(limits.get(id.leaf) ?? 0, cap));
	}
	return limits;
}

/** Reads the definitions of the probed names (runs beside the other arms; ranking needs their rows for mentions). */
export function fetchDefinitions(
	db: Queryable,
	scope: SearchScope,
	probed: readonly QueryIdentifier[],
	t: RetrievalTuning,
): Promise<SymbolRow[]> {
	const limits = definitionLimits(probed, t);
	return symbolDefinitions(db, scope, [...limits.keys()], t.symbol_defs_per_name, [...limits.values()]);
}

/** One line for the trace: what was probed and what matched. */
export function describeSymbolArm(ids: readonly QueryIdentifier[], matches: readonly SymbolMatch[], max = 3): string {
	if (!ids.length) return 'symbol arm: no identifiers in the turn';
	const names = ids
		.slice(0, 6)
		.map((i) => `${i.raw} (${i.strength})`)
		.join(', ');
	const defs = matches.filter((m) => m.match === 'definition');
	const mentions = matches.length - defs.length;
	const top = defs
		.slice(0, max)
		.map((m) => `${m.name} ${m.row.path ?? m.row.doc_id}:${m.line ?? '?'}`)
		.join('; ');
	return `symbol arm: ${names}${ids.length > 6 ? ', …' : ''} → ${defs.length} definition(s)${top ? ` [${top}]` : ''}, ${mentions} mention(s)`;
}
