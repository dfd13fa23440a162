/**
 * Runs a proposed action after the user clicked its control — and only then: a command is sent
 * to a "Gated Memory" terminal, Stage / Revert / Commit go through the git extension's API, Apply
 * Edit applies the language server's quick fix at the diagnostic. A proposal marked `confirm`
 * (destructive, production-looking, discarding changes) first asks in a modal dialog that names
 * what it touches; Cancel runs nothing. Restricted Mode is refused before this (ActionBook).
 */
import * as vscode from 'vscode';
import type { ActionRunner } from '../../chat/liveState/actionBook';
import type { RunnableAction } from '../../chat/liveState/actionProposal';
import type { ActionStatus, ProposedAction } from '../../core/protocol';
import { repositoryOf } from './gitSource';

type Result = { status: ActionStatus; message: string };

export class VsCodeActionRunner implements ActionRunner {
	private terminal: vscode.Terminal | undefined;

	async run(run: RunnableAction, proposal: ProposedAction): Promise<Result> {
		if (!vscode.workspace.isTrusted)
			return { status: 'unavailable', message: 'Restricted Mode: actions are not run in an untrusted workspace.' };
		if (proposal.confirm) {
			const go = proposal.label.replace(/…$/, '');
			const choice = await vscode.window.showWarningMessage(
				proposal.confirm,
				{ modal: true, detail: proposal.detail },
				go,
			);
			if (choice !== go)
				return { status: 'declined', message: `not run: the confirmation was cancelled (${proposal.detail})` };
		}
		switch (run.kind) {
			case 'terminal':
				return this.runInTerminal(run.command);
			case 'git':
				return gitAction(run);
			case 'edit':
				return quickFix(run.path, run.line);
			case 'memory':
				// The chat controller runs memory actions (Undo of a chat "forget") itself; never the editor.
				return { status: 'unavailable', message: 'memory actions are run by the chat, not the editor' };
		}
	}

	private runInTerminal(command: string): Result {
		if (!this.terminal || this.terminal.exitStatus !== undefined)
			this.terminal = vscode.window.createTerminal({ name: 'Gated Memory' });
		this.terminal.show(true);
		this.terminal.sendText(command, true);
		return { status: 'ran', message: `sent \`${command}\` to the "Gated Memory" terminal` };
	}
}

async function gitAction(run: Extract<RunnableAction, { kind: 'git' }>): Promise<Result> {
	const repo = await repositoryOf();
	if (!repo) return { status: 'unavailable', message: 'no git repository (or no git extension) to run this in' };
	const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
	if (!folder) return { status: 'unavailable', message: 'no workspace folder' };
	const abs = run.paths.map((p) => vscode.Uri.joinPath(folder.uri, p).fsPath);
	switch (run.op) {
		case 'stage':
			await repo.add(abs);
			return { status: 'ran', message: `staged ${run.paths.join(', ')}` };
		case 'revert':
			await repo.clean(abs);
			return { status: 'ran', message: `discarded the working-tree changes to ${run.paths.join(', ')}` };
		case 'commit': {
			const message = await vscode.window.showInputBox({
				title: `Commit ${run.paths.join(', ')}`,
				prompt: 'Commit message',
				ignoreFocusOut: true,
				validateInput: (v) => (v.trim() ? null : 'A commit needs a message'),
			});
			if (!message?.trim()) return { status: 'declined', message: 'not committed: no message was given' };
			await repo.add(abs);
			await repo.commit(message.trim());
			return { status: 'ran', message: `committed ${run.paths.join(', ')}` };
		}
	}
}

async function quickFix(path: string, line: number): Promise<Result> {
	const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
	if (!folder) return { status: 'unavailable', message: 'no workspace folder' };
	const uri = vscode.Uri.joinPath(folder.uri, path);
	const diagnostic = vscode.languages.getDiagnostics(uri).find((d) => d.range.start.line === line - 1);
	if (!diagnostic) return { status: 'unavailable', message: `the diagnostic at ${path}:${line} is gone` };
	const actions =
		(await vscode.commands.executeCommand<vscode.CodeAction[] | undefined>(
			'vscode.executeCodeActionProvider',
			uri,
			diagnostic.range,
			vscode.CodeActionKind.QuickFix.value,
		)) ?? [];
	const fix = actions.find((a) => a.isPreferred) ?? actions.find((a) => a.edit || a.command);
	if (!fix) return { status: 'unavailable', message: `the language server offers no quick fix for ${path}:${line}` };
	if (fix.edit && !(await vscode.workspace.applyEdit(fix.edit)))
		return { status: 'failed', message: `the editor refused the edit "${fix.title}"` };
	if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
	return { status: 'ran', message: `applied "${fix.title}" at ${path}:${line}` };
}
