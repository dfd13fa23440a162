/**
 * "Where is X defined / who calls X" through the language servers: the definition provider at an
 * occurrence of X in the active file, else the workspace symbol provider; references through the
 * reference provider at the definition. Each item quotes the lines. When no language server
 * answers, the read is "unavailable" and the workspace index (searched for symbol questions, see
 * src/core/liveState/liveSources.ts) answers instead — the trace says which.
 */
import * as vscode from 'vscode';
import type { LiveItem, LiveRead, LiveRequest, LiveStateSource } from '../../chat/liveState/liveStatePorts';
import { checkAborted, workspacePath } from './livePaths';

/** Lines quoted from a definition: its range, up to this many. */
const DEFINITION_LINES = 30;

export class SymbolsSource implements LiveStateSource {
	readonly source = 'symbols' as const;

	async read(request: LiveRequest, signal: AbortSignal): Promise<LiveRead> {
		const query = request.plan.symbol;
		if (!query) return { status: 'unavailable', reason: 'the turn names no symbol' };
		const found = await this.definition(query.name, signal);
		checkAborted(signal);
		if (!found)
			return {
				status: 'unavailable',
				reason: `no language server knows "${query.name}" (no definition or workspace symbol); the workspace index answers instead`,
			};
		const items: LiveItem[] = [];
		const def = await quote(found.location, `Definition: `, query.name, DEFINITION_LINES);
		if (def) items.push(def);
		if (query.kind === 'references') {
			const refs =
				(await vscode.commands.executeCommand<vscode.Location[] | undefined>(
					'vscode.executeReferenceProvider',
					found.location.uri,
					found.location.range.start,
				)) ?? [];
			checkAborted(signal);
			const others = refs.filter(
				(r) =>
					!(
						r.uri.toString() === found.location.uri.toString() && r.range.start.line === found.location.range.start.line
					),
			);
			for (const r of others.slice(0, request.maxItems - 1)) {
				const item = await quote(r, 'Reference: ', null, 1);
				if (item) items.push(item);
			}
			return {
				status: 'ok',
				items,
				via: `language server (${found.via}, then vscode.executeReferenceProvider)`,
				total: 1 + others.length,
				read: `the definition of ${query.name} and ${others.length} reference${others.length === 1 ? '' : 's'}`,
			};
		}
		return { status: 'ok', items, via: `language server (${found.via})`, read: `the definition of ${query.name}` };
	}

	private async definition(
		name: string,
		signal: AbortSignal,
	): Promise<{ location: vscode.Location; via: string } | null> {
		const editor = vscode.window.activeTextEditor;
		if (editor) {
			const at = occurrence(editor.document, name);
			if (at) {
				const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
					'vscode.executeDefinitionProvider',
					editor.document.uri,
					at,
				);
				checkAborted(signal);
				const first = defs?.map(toLocation).find((l) => workspacePath(l.uri) !== null);
				if (first) return { location: first, via: 'vscode.executeDefinitionProvider' };
			}
		}
		const symbols =
			(await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
				'vscode.executeWorkspaceSymbolProvider',
				name,
			)) ?? [];
		checkAborted(signal);
		const exact = symbols
			.filter((s) => s.name === name || s.name === `${name}()`)
			.find((s) => workspacePath(s.location.uri) !== null);
		return exact ? { location: exact.location, via: 'vscode.executeWorkspaceSymbolProvider' } : null;
	}
}

function toLocation(l: vscode.Location | vscode.LocationLink): vscode.Location {
	return 'targetUri' in l ? new vscode.Location(l.targetUri, l.targetRange) : l;
}

/** The first whole-word occurrence of `name` in the document. */
function occurrence(doc: vscode.TextDocument, name: string): vscode.Position | null {
	const re = new RegExp(`\\b${name.replace(/[$]/g, '\\$')}\\b`);
	for (let line = 0; line < Math.min(doc.lineCount, 5000); line++) {
		const m = re.exec(doc.lineAt(line).text);
		if (m) return new vscode.Position(line, m.index);
	}
	return null;
}

async function quote(
	location: vscode.Location,
	prefix: string,
	name: string | null,
	maxLines: number,
): Promise<LiveItem | null> {
	const path = workspacePath(location.uri);
	if (path === null) return null;
	const doc = await vscode.workspace.openTextDocument(location.uri);
	const start = location.range.start.line;
	const end = Math.min(doc.lineCount - 1, Math.max(start, Math.min(location.range.end.line, start + maxLines - 1)));
	const text = doc.getText(new vscode.Range(start, 0, end, doc.lineAt(end).text.length));
	const lines = end > start ? `${start + 1}-${end + 1}` : `${start + 1}`;
	return {
		citation: `${prefix}${path}:${lines}${name ? ` (${name})` : ''}`,
		path,
		startLine: start + 1,
		endLine: end + 1,
		text,
	};
}
