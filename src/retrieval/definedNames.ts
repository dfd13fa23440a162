/**
 * Files by the names a report mentions that they define (issue 15, long bug reports in files
 * mode): a report about `QuerySet.bulk_create` that also names `_batched_insert` and `batch_size`
 * points at the one file defining several of them, while each name alone is defined in several
 * places. Every code-shaped or capitalised name counts once per file, weighted by how few files
 * define it (1 / files), so a name defined everywhere (`__init__`, `get`) adds almost nothing. Pure:
 * the symbol arm's definition matches in, ranked files out.
 */
import { normalizeSymbol } from '../store/chunkRepo';
import type { SymbolMatch } from './symbolArm';

const leafOf = (m: SymbolMatch) => normalizeSymbol(m.name.split(/\.|::/).pop() ?? m.name);

/** A file and the score of the names it defines; `match` is its best-ranked definition. */
export interface DefiningFile {
	path: string;
	score: number;
	names: string[];
	match: SymbolMatch;
}

/** Files ranked by Σ 1 / (files defining the name) over the names written as code or as a Name. */
export function filesByDefinedNames(matches: readonly SymbolMatch[]): DefiningFile[] {
	const defs = matches.filter(
		(m) => m.match === 'definition' && m.row.path && (m.strength === 'code' || m.strength === 'name'),
	);
	const filesOf = new Map<string, Set<string>>();
	for (const m of defs) {
		const leaf = leafOf(m);
		filesOf.set(leaf, (filesOf.get(leaf) ?? new Set()).add(m.row.path!));
	}
	const out = new Map<string, DefiningFile & { leaves: Set<string> }>();
	for (const m of defs) {
		const leaf = leafOf(m);
		const path = m.row.path!;
		const f = out.get(path) ?? { path, score: 0, names: [], match: m, leaves: new Set<string>() };
		if (!f.leaves.has(leaf)) {
			f.leaves.add(leaf);
			f.score += 1 / filesOf.get(leaf)!.size;
			f.names.push(m.raw);
		}
		out.set(path, f);
	}
	return [...out.values()]
		.sort((a, b) => b.score - a.score || matches.indexOf(a.match) - matches.indexOf(b.match))
		.map(({ leaves: _l, ...f }) => f);
}
