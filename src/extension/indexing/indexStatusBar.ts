/**
 * The status-bar item: "indexing 45%", "up to date · N chunks", "not indexed", "index errors",
 * or "restricted" in Restricted Mode (the welcome view says the same). A click opens Inspect
 * Memory State, where the full health is shown.
 */
import * as vscode from 'vscode';
import { statusBarText, statusBarTooltip } from './indexHealth';
import type { IndexStatus } from './indexStatus';

/** Creates the item and keeps it in step with `status` and workspace trust. */
export function registerIndexStatusBar(
	context: vscode.ExtensionContext,
	status: IndexStatus,
	inspectCommand: string,
): vscode.StatusBarItem {
	const item = vscode.window.createStatusBarItem('gatedMemory.indexStatus', vscode.StatusBarAlignment.Left, 50);
	item.name = 'Gated Memory: Workspace Index';
	item.command = inspectCommand;
	const render = () => {
		const h = status.snapshot();
		const restricted = !vscode.workspace.isTrusted;
		item.text = statusBarText(h, restricted);
		item.tooltip = statusBarTooltip(h, restricted, Date.now());
		item.backgroundColor =
			h.state === 'error' && !restricted ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
	};
	render();
	item.show();
	context.subscriptions.push(item, status.onDidChange(render), vscode.workspace.onDidGrantWorkspaceTrust(render));
	return item;
}
