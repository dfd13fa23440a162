/**
 * The editor: the active file, its language and the selection(s) with their text; with an empty
 * selection and "this function", the enclosing symbol (vscode.executeDocumentSymbolProvider);
 * otherwise the visible lines around the cursor; and the other visible editors' files.
 */
import * as vscode from 'vscode';
import type { LiveItem, LiveRead, LiveRequest, LiveStateSource } from '../../chat/liveState/liveStatePorts';
import { checkAborted, workspacePath } from './livePaths';

export class EditorSource implements LiveStateSource {
	readonly source = 'editor' as const;

	async read(request: LiveRequest, signal: AbortSignal): Promise<LiveRead> {
		const editor = vscode.window.activeTextEditor;
		if (!editor) return { status: 'unavailable', reason: 'no active editor' };
		const doc = editor.document;
		const path = workspacePath(doc.uri) ?? doc.uri.path.split('/').pop() ?? 'untitled';
		const items: LiveItem[] = [];
		const selections = editor.selections.filter((s) => !s.isEmpty);
		let what: string;
		if (selections.length) {
			for (const s of selections) {
				const end = s.end.character === 0 && s.end.line > s.start.line ? s.end.line - 1 : s.end.line;
				items.push({
					citation: `Selection: ${path}:${s.start.line + 1}-${end + 1}`,
					path,
					startLine: s.start.line + 1,
					endLine: end + 1,
					text: doc.getText(s),
				});
			}
			what = `${selections.length} selection${selections.length === 1 ? '' : 's'} in ${path} (${doc.languageId})`;
		} else {
			const symbol = request.plan.enclosingSymbol ? await enclosingSymbol(doc, editor.selection.active, signal) : null;
			if (symbol) {
				const r = symbol.range;
				items.push({
					citation: `Symbol: ${path}:${r.start.line + 1}-${r.end.line + 1} (${symbol.name})`,
					path,
					startLine: r.start.line + 1,
					endLine: r.end.line + 1,
					text: doc.getText(r),
				});
				what = `the ${vscode.SymbolKind[symbol.kind].toLowerCase()} ${symbol.name} around the cursor in ${path} (document symbols)`;
			} else {
				const range = editor.visibleRanges[0] ?? new vscode.Range(0, 0, Math.min(doc.lineCount - 1, 40), 0);
				const around = aroundCursor(range, editor.selection.active.line, 40);
				const lines = doc.getText(new vscode.Range(around.start, 0, around.end, doc.lineAt(around.end).text.length));
				items.push({
					citation: `Editor: ${path}:${around.start + 1}-${around.end + 1}`,
					path,
					startLine: around.start + 1,
					endLine: around.end + 1,
					text: lines,
				});
				what = `no selection; the visible lines around the cursor (line ${editor.selection.active.line + 1}) of ${path} (${doc.languageId})${request.plan.enclosingSymbol ? '; no enclosing symbol found' : ''}`;
			}
		}
		const others = vscode.window.visibleTextEditors
			.filter((e) => e !== editor)
			.map((e) => workspacePath(e.document.uri))
			.filter((p): p is string => p !== null);
		if (others.length)
			items.push({
				citation: 'Editor: other visible files',
				path: null,
				startLine: null,
				endLine: null,
				text: others.join('\n'),
			});
		return {
			status: 'ok',
			items,
			read: what + (others.length ? `; ${others.length} other visible editor${others.length === 1 ? '' : 's'}` : ''),
		};
	}
}

async function enclosingSymbol(
	doc: vscode.TextDocument,
	at: vscode.Position,
	signal: AbortSignal,
): Promise<vscode.DocumentSymbol | null> {
	const symbols = await vscode.commands.executeCommand<
		(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined
	>('vscode.executeDocumentSymbolProvider', doc.uri);
	checkAborted(signal);
	let best: vscode.DocumentSymbol | null = null;
	const walk = (list: readonly vscode.DocumentSymbol[]) => {
		for (const s of list) {
			if (!s.range.contains(at)) continue;
			if (isCallable(s.kind) || !best) best = s;
			if (s.children?.length) walk(s.children);
		}
	};
	walk((symbols ?? []).filter((s): s is vscode.DocumentSymbol => 'range' in s && 'children' in s));
	return best;
}

function isCallable(kind: vscode.SymbolKind): boolean {
	return (
		kind === vscode.SymbolKind.Function ||
		kind === vscode.SymbolKind.Method ||
		kind === vscode.SymbolKind.Constructor ||
		kind === vscode.SymbolKind.Class
	);
}

function aroundCursor(visible: vscode.Range, cursor: number, max: number): { start: number; end: number } {
	const inView = cursor >= visible.start.line && cursor <= visible.end.line;
	const start = inView ? Math.max(visible.start.line, cursor - Math.floor(max / 2)) : visible.start.line;
	return { start, end: Math.min(visible.end.line, start + max - 1) };
}
