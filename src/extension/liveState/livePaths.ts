/** Workspace-relative, `/`-separated paths for live items (what citations show and open). */
import * as vscode from 'vscode';

/** `src/a.ts` for a file inside a workspace folder; null for anything else (other schemes, outside files). */
export function workspacePath(uri: vscode.Uri): string | null {
	if (uri.scheme !== 'file') return null;
	if (!vscode.workspace.getWorkspaceFolder(uri)) return null;
	return vscode.workspace.asRelativePath(uri, false).replace(/\\/g, '/');
}

/** Throws when the turn was stopped or the source's budget ran out, so a source stops between awaits. */
export function checkAborted(signal: AbortSignal): void {
	if (signal.aborted) throw new Error('aborted');
}
