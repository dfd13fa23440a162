/**
 * What the chat panel's buttons do in the editor: copy code (or a trace) to the clipboard, insert
 * code at the active editor's selection, open code as a new untitled file, and open a citation at
 * its lines. A citation URI comes from the webview, so it is checked: only `file:` URIs whose real
 * path (symlinks resolved) lies inside a workspace folder's real path are opened; anything else —
 * a link pointing outside, a missing file, a dangling link — is refused with a logged warning.
 */
import * as vscode from 'vscode';
import { citedRange, languageIdForFence } from './editorTargets';
import { errorMessage, type Logger } from '../../chat/logger';
import { realContainment } from '../indexing/workspaceContainment';

/** Editor actions for the panel; every method reports its own failures and never rejects. */
export class EditorActions {
	private knownLanguages: Set<string> | undefined;

	constructor(private readonly log: Logger) {}

	async copy(text: string): Promise<void> {
		try {
			await vscode.env.clipboard.writeText(text);
			void vscode.window.setStatusBarMessage('Gated Memory: copied to the clipboard', 2000);
		} catch (e) {
			this.fail('copy to the clipboard', e);
		}
	}

	/** Inserts at the active editor's selection (replacing it); with no editor, opens an untitled one. */
	async insert(code: string): Promise<void> {
		try {
			const editor = vscode.window.activeTextEditor;
			if (!editor) {
				await this.newFile(code, null);
				return;
			}
			const ok = await editor.edit((edit) => {
				for (const selection of editor.selections) edit.replace(selection, code);
			});
			if (!ok) throw new Error('the editor refused the edit');
			await vscode.window.showTextDocument(editor.document, editor.viewColumn);
		} catch (e) {
			this.fail('insert the code', e);
		}
	}

	/** Opens `code` in a new untitled editor, in the language the fence names. */
	async newFile(code: string, fence: string | null): Promise<void> {
		try {
			this.knownLanguages ??= new Set(await vscode.languages.getLanguages());
			const document = await vscode.workspace.openTextDocument({
				content: code,
				language: languageIdForFence(fence, this.knownLanguages),
			});
			await vscode.window.showTextDocument(document, { preview: false });
		} catch (e) {
			this.fail('open the code in a new file', e);
		}
	}

	/** Opens a cited file at its lines and selects them. */
	async openCitation(uri: string, startLine: number | null, endLine: number | null): Promise<void> {
		let target: vscode.Uri;
		try {
			target = vscode.Uri.parse(uri, true);
		} catch {
			this.log.warn(`refused to open a citation with an unreadable URI: ${uri.slice(0, 200)}`);
			return;
		}
		const folders = (vscode.workspace.workspaceFolders ?? [])
			.filter((f) => f.uri.scheme === 'file')
			.map((f) => f.uri.fsPath);
		if (target.scheme !== 'file' || folders.length === 0) {
			this.log.warn(`refused to open a citation outside the workspace folders: ${target.toString(true).slice(0, 200)}`);
			return;
		}
		// Real paths, not the URI's text: a symlink inside a folder may point anywhere.
		const inside = await realContainment(target.fsPath, folders);
		if (!inside.ok) {
			this.log.warn(
				`refused to open a citation that is not a file inside the workspace folders: ${target.toString(true).slice(0, 200)} (${inside.reason})`,
			);
			return;
		}
		try {
			const document = await vscode.workspace.openTextDocument(target);
			const { start, end } = citedRange(startLine, endLine, document.lineCount);
			const range = new vscode.Range(start, 0, end, document.lineAt(end).text.length);
			await vscode.window.showTextDocument(document, { selection: range, preview: true });
			vscode.window.activeTextEditor?.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
		} catch (e) {
			this.fail(`open ${vscode.workspace.asRelativePath(target)}`, e);
		}
	}

	private fail(what: string, e: unknown): void {
		this.log.warn(`could not ${what}: ${errorMessage(e)}`);
		void vscode.window.showWarningMessage(`Gated Memory could not ${what}: ${errorMessage(e)}`);
	}
}
