/**
 * "Gated Memory: Remember Selection…" (#19): the selection (or a typed note, when nothing is
 * selected) becomes a research memory anchored to the file and lines it came from — so it is
 * flagged stale when that code changes — or a standing instruction. The user confirms the text
 * and the kind before anything is written; Restricted Mode writes nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Thresholds } from '../core/thresholds';
import type { Logger } from '../chat/logger';
import { errorMessage } from '../chat/logger';
import { MAX_NOTE_CHARS, noteProblem, rememberNote, type CodeLocation } from '../chat/rememberCode';
import type { WorkspaceMemory } from '../chat/workspaceMemory';
import { workspaceId } from '../store/location';

export const REMEMBER_SELECTION = 'gatedMemory.rememberSelection';

export function registerMemoryCommands(
	context: vscode.ExtensionContext,
	deps: { log: Logger; memory: WorkspaceMemory; thresholds: () => Thresholds },
): void {
	context.subscriptions.push(vscode.commands.registerCommand(REMEMBER_SELECTION, () => rememberSelection(deps)));
}

async function rememberSelection(deps: {
	log: Logger;
	memory: WorkspaceMemory;
	thresholds: () => Thresholds;
}): Promise<void> {
	if (!vscode.workspace.isTrusted) {
		void vscode.window.showWarningMessage(
			'Gated Memory: Restricted Mode — nothing is written to memory. Trust this workspace to remember things.',
		);
		return;
	}
	const editor = vscode.window.activeTextEditor;
	const folder = editor
		? vscode.workspace.getWorkspaceFolder(editor.document.uri)
		: (vscode.workspace.workspaceFolders ?? []).find((f) => f.uri.scheme === 'file');
	if (!folder || folder.uri.scheme !== 'file') {
		void vscode.window.showWarningMessage(
			'Gated Memory: open a file of a workspace folder first (memory belongs to a workspace).',
		);
		return;
	}
	let from: CodeLocation | undefined;
	let initial = '';
	if (
		editor &&
		editor.document.uri.scheme === 'file' &&
		vscode.workspace.getWorkspaceFolder(editor.document.uri) === folder
	) {
		const sel = editor.selection;
		const rel = path.relative(folder.uri.fsPath, editor.document.uri.fsPath).split(path.sep).join('/');
		if (!sel.isEmpty) {
			// A selection ending at column 0 of a line does not include that line.
			const endLine = sel.end.character === 0 && sel.end.line > sel.start.line ? sel.end.line : sel.end.line + 1;
			from = { path: rel, startLine: sel.start.line + 1, endLine };
			initial = editor.document.getText(sel).trim().slice(0, MAX_NOTE_CHARS);
		} else {
			const line = sel.active.line + 1;
			from = { path: rel, startLine: line, endLine: line };
		}
	}
	const text = await vscode.window.showInputBox({
		title: from
			? `Remember (from ${from.path}:${from.startLine}${from.endLine !== from.startLine ? `-${from.endLine}` : ''})`
			: 'Remember',
		prompt: 'What should Gated Memory remember? Edit the selection into the fact or rule worth keeping.',
		value: initial,
		validateInput: (v) => noteProblem(v, from),
	});
	if (text === undefined) return;
	const kind = await vscode.window.showQuickPick(
		[
			{
				label: 'Research memory',
				description: 'recalled when relevant; flagged stale when the cited code changes',
				as: 'research' as const,
			},
			{ label: 'Standing instruction', description: 'applied to every reply', as: 'instruction' as const },
		],
		{ title: 'Remember as…' },
	);
	if (!kind) return;
	try {
		const store = await deps.memory.openStore();
		const out = await rememberNote(store.db, await deps.memory.embedder(), deps.thresholds(), {
			workspaceId: workspaceId(folder.uri.fsPath),
			turnId: `command:${Date.now().toString(36)}`,
			text,
			as: kind.as,
			...(from ? { from } : {}),
		});
		deps.log.info(`remember selection: ${out.message}`);
		void vscode.window.showInformationMessage(`Gated Memory: ${out.message}`);
	} catch (e) {
		deps.log.warn(`remember selection failed: ${errorMessage(e)}`);
		void vscode.window.showErrorMessage(`Gated Memory: not remembered — ${errorMessage(e)}`);
	}
}
