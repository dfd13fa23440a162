/**
 * The editor's live-state host: the five VS Code sources and the workspace's package.json scripts.
 * Created at activation but cheap: nothing is read until a turn asks (the terminal tracker only
 * subscribes to two events).
 */
import * as vscode from 'vscode';
import type { LiveStateHost } from '../../chat/liveState/liveStatePorts';
import { DiagnosticsSource } from './diagnosticsSource';
import { EditorSource } from './editorSource';
import { GitSource } from './gitSource';
import { SymbolsSource } from './symbolsSource';
import { TerminalSource } from './terminalSource';

export function createLiveStateHost(context: vscode.ExtensionContext): LiveStateHost {
	const terminal = new TerminalSource();
	context.subscriptions.push(terminal);
	return {
		sources: {
			diagnostics: new DiagnosticsSource(),
			editor: new EditorSource(),
			git: new GitSource(),
			symbols: new SymbolsSource(),
			terminal,
		},
		scripts: workspaceScripts,
	};
}

/** `scripts` of the first workspace folder's package.json (null: no folder or no package.json). */
async function workspaceScripts(): Promise<Record<string, string> | null> {
	const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
	if (!folder) return null;
	let raw: Uint8Array;
	try {
		raw = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, 'package.json'));
	} catch {
		return null;
	}
	const pkg = JSON.parse(new TextDecoder().decode(raw)) as { scripts?: unknown };
	if (!pkg.scripts || typeof pkg.scripts !== 'object') return {};
	return Object.fromEntries(
		Object.entries(pkg.scripts as Record<string, unknown>).filter(
			(e): e is [string, string] => typeof e[1] === 'string',
		),
	);
}
