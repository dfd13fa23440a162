/**
 * Structure-aware spans for source code: tree-sitter finds classes, functions and methods; each
 * becomes a span (with its decorators, `export`, and the comment block right above it), the code
 * between them becomes `block` spans, and a class too big for one chunk is opened up into its
 * methods. Functions nested in a function stay inside it.
 */
import type { Node, Query, Tree } from '@vscode/tree-sitter-wasm';
import type { ChunkDefinition, ChunkLimits, LineUnit } from './chunkTypes';
import { fits, type Lines } from './chunkUnits';
import { WRAPPER_NODES } from './symbolQueries';

/** A definition found by the symbol query, as a tree of containers and their members. */
export interface Definition {
	kind: 'class' | 'function' | 'method';
	name: string;
	/** Rows (0-based, inclusive) including decorators, wrappers and the leading comment block. */
	start: number;
	end: number;
	children: Definition[];
}

// C/C++ function names sit inside nested declarators: follow them to the function_declarator.
function declaratorName(node: Node): string {
	let d = node.childForFieldName('declarator');
	while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
	return d?.childForFieldName('declarator')?.text ?? '?';
}

// The rows a definition owns: wrappers (export, decorators, `const f =`) and comments right above.
function extent(node: Node): { start: number; end: number } {
	let top = node;
	while (top.parent && WRAPPER_NODES.has(top.parent.type)) top = top.parent;
	let start = top.startPosition.row;
	let prev = top.previousNamedSibling;
	while (prev && prev.type.includes('comment') && prev.endPosition.row >= start - 1) {
		start = prev.startPosition.row;
		prev = prev.previousNamedSibling;
	}
	const e = top.endPosition;
	// An end at column 0 means the node's text ends with the newline of the row before.
	const end = e.column === 0 && e.row > top.startPosition.row ? e.row - 1 : e.row;
	return { start, end };
}

type Raw = { node: Node; kind: 'class' | 'function'; name: string; receiver: string | null };

/** Runs the symbol query and nests the definitions; nested functions are dropped. */
export function extractDefinitions(tree: Tree, query: Query): Definition[] {
	const raws = new Map<number, Raw>();
	for (const m of query.matches(tree.rootNode)) {
		const def = m.captures.find((c) => c.name === 'class' || c.name === 'function');
		if (!def || raws.has(def.node.id)) continue;
		const name = m.captures.find((c) => c.name === 'name')?.node.text ?? declaratorName(def.node);
		const receiver = m.captures.find((c) => c.name === 'parent')?.node.text ?? null;
		raws.set(def.node.id, { node: def.node, kind: def.name as 'class' | 'function', name, receiver });
	}
	const byId = new Map<number, Definition>();
	const roots: Definition[] = [];
	// Document order, so a container is always created before its members.
	const ordered = [...raws.values()].sort(
		(a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex,
	);
	for (const r of ordered) {
		let up = r.node.parent;
		while (up && !raws.has(up.id)) up = up.parent;
		const outer = up ? byId.get(up.id) : undefined;
		if (up && !outer) continue; // inside a dropped definition
		if (outer && outer.kind !== 'class') continue; // nested in a function: part of that chunk
		const method = r.kind === 'function' && (outer !== undefined || r.receiver !== null || r.name.includes('::'));
		const qualified = outer
			? `${outer.name}.${r.name}`
			: r.receiver
				? `${r.receiver.replace(/^\*/, '')}.${r.name}`
				: r.name;
		const d: Definition = {
			kind: r.kind === 'class' ? 'class' : method ? 'method' : 'function',
			name: qualified,
			...extent(r.node),
			children: [],
		};
		byId.set(r.node.id, d);
		(outer ? outer.children : roots).push(d);
	}
	return roots;
}

/** Every definition of the tree (containers and members), 1-based lines, in document order. */
export function flattenDefinitions(defs: readonly Definition[]): ChunkDefinition[] {
	const out: ChunkDefinition[] = [];
	const walk = (ds: readonly Definition[]) => {
		for (const d of ds) {
			out.push({ name: d.name, kind: d.kind, startLine: d.start + 1, endLine: d.end + 1 });
			walk(d.children);
		}
	};
	walk(defs);
	return out;
}

/**
 * Covers rows [from, to] with spans: definitions, and the code between them (`block`, or the
 * enclosing class's own lines). A definition that does not fit one chunk and has members is
 * opened up; one without members is left whole for splitUnit to window.
 */
export function definitionUnits(
	lines: Lines,
	defs: readonly Definition[],
	from: number,
	to: number,
	limits: ChunkLimits,
	container: Definition | null = null,
): LineUnit[] {
	const units: LineUnit[] = [];
	const gap = (start: number, end: number) => {
		if (end >= start)
			units.push({ start, end, kind: container ? 'class' : 'block', symbols: container ? [container.name] : [] });
	};
	let cursor = from;
	for (const d of defs) {
		const start = Math.max(d.start, cursor);
		if (start > d.end || start > to) continue; // overlaps a previous definition entirely
		gap(cursor, start - 1);
		const end = Math.min(d.end, to);
		if (d.children.length && !fits(lines, start, end, limits))
			units.push(...definitionUnits(lines, d.children, start, end, limits, d));
		else units.push({ start, end, kind: d.kind, symbols: [d.name] });
		cursor = end + 1;
	}
	gap(cursor, to);
	return units;
}
