/**
 * Diagnostics (the Problems view) through `vscode.languages.getDiagnostics()`: errors and warnings
 * of workspace files, the active file first, then by severity and path, capped; each item quotes
 * the message with its source/code and the offending line. Synchronous in the API, so it is cheap.
 */
import * as vscode from 'vscode';
import type { LiveItem, LiveRead, LiveRequest, LiveStateSource } from '../../chat/liveState/liveStatePorts';
import { workspacePath } from './livePaths';

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

export class DiagnosticsSource implements LiveStateSource {
	readonly source = 'diagnostics' as const;

	async read(request: LiveRequest): Promise<LiveRead> {
		const active = vscode.window.activeTextEditor?.document.uri.toString();
		const rows: { path: string; active: boolean; d: vscode.Diagnostic; uri: vscode.Uri }[] = [];
		let files = 0;
		for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
			const path = workspacePath(uri);
			if (path === null) continue;
			const shown = diagnostics.filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning);
			if (shown.length) files++;
			for (const d of shown) rows.push({ path, active: uri.toString() === active, d, uri });
		}
		rows.sort(
			(a, b) =>
				Number(b.active) - Number(a.active) ||
				a.d.severity - b.d.severity ||
				a.path.localeCompare(b.path) ||
				a.d.range.start.line - b.d.range.start.line,
		);
		if (rows.length === 0) {
			return {
				status: 'ok',
				read: 'the Problems view: no errors or warnings in workspace files',
				items: [
					{
						citation: 'Problems',
						path: null,
						startLine: null,
						endLine: null,
						text: 'No errors or warnings in the Problems view for the workspace files.',
					},
				],
				total: 1,
			};
		}
		const items: LiveItem[] = rows.slice(0, request.maxItems).map(({ path, d, uri }) => {
			const line = d.range.start.line + 1;
			const code = typeof d.code === 'object' ? d.code.value : d.code;
			const origin = [d.source, code === undefined ? '' : String(code)].filter(Boolean).join(' ');
			const text = lineText(uri, d.range.start.line);
			return {
				citation: `Problems: ${path}:${line}`,
				path,
				startLine: line,
				endLine: d.range.end.line + 1,
				text: `${SEVERITY[d.severity]}${origin ? ` ${origin}` : ''} at ${path}:${line}:${d.range.start.character + 1}: ${d.message}${text === null ? '' : `\n${line} | ${text}`}`,
			};
		});
		const errors = rows.filter((r) => r.d.severity === vscode.DiagnosticSeverity.Error).length;
		return {
			status: 'ok',
			items,
			total: rows.length,
			read: `the Problems view: ${errors} error${errors === 1 ? '' : 's'}, ${rows.length - errors} warning${rows.length - errors === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}${active ? ', active file first' : ''}`,
		};
	}
}

/** The text of a line when its document is open (never opens one just to quote it). */
function lineText(uri: vscode.Uri, line: number): string | null {
	const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	if (!doc || line >= doc.lineCount) return null;
	return doc.lineAt(line).text.slice(0, 300);
}
