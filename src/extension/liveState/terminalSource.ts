/**
 * The terminal's last command, its exit code and (where shell integration streams it) the tail of
 * its output, from `window.onDidStartTerminalShellExecution` / `onDidEndTerminalShellExecution`
 * (feature-detected: older editors and shells without integration give "unavailable").
 * The tracker listens from activation (two cheap event subscriptions) and keeps only the last run.
 */
import * as vscode from 'vscode';
import type { LiveRead, LiveStateSource } from '../../chat/liveState/liveStatePorts';

/** Output kept from a run: its tail, where the error usually is. */
const OUTPUT_TAIL_CHARS = 4000;

interface LastRun {
	command: string;
	exitCode: number | undefined;
	cwd: string | null;
	output: string;
	terminal: string;
	at: number;
}

export class TerminalSource implements LiveStateSource, vscode.Disposable {
	readonly source = 'terminal' as const;
	private last: LastRun | null = null;
	private readonly output = new WeakMap<object, string>();
	private readonly subs: vscode.Disposable[] = [];
	readonly supported: boolean;

	constructor() {
		const w = vscode.window as Partial<
			Pick<typeof vscode.window, 'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution'>
		>;
		this.supported = typeof w.onDidEndTerminalShellExecution === 'function';
		if (w.onDidStartTerminalShellExecution)
			this.subs.push(w.onDidStartTerminalShellExecution((e) => void this.collect(e.execution)));
		if (w.onDidEndTerminalShellExecution) {
			this.subs.push(
				w.onDidEndTerminalShellExecution((e) => {
					this.last = {
						command: e.execution.commandLine.value,
						exitCode: e.exitCode,
						cwd: e.execution.cwd?.fsPath ?? null,
						output: this.output.get(e.execution) ?? '',
						terminal: e.terminal.name,
						at: Date.now(),
					};
				}),
			);
		}
	}

	async read(): Promise<LiveRead> {
		if (!this.supported) return { status: 'unavailable', reason: 'this editor has no terminal shell-integration API' };
		const last = this.last;
		if (!last)
			return {
				status: 'unavailable',
				reason: 'no command has finished in a terminal with shell integration since the window opened',
			};
		const exit = last.exitCode === undefined ? 'exit code unknown' : `exit code ${last.exitCode}`;
		const text = [
			`$ ${last.command}`,
			`(${exit}, terminal "${last.terminal}"${last.cwd ? `, in ${last.cwd}` : ''})`,
			last.output ? `--- output (tail) ---\n${last.output}` : '(no output captured)',
		].join('\n');
		return {
			status: 'ok',
			via: 'terminal shell integration',
			read: `the last command in terminal "${last.terminal}" (${exit})`,
			items: [
				{
					citation: `Terminal: ${last.command.slice(0, 80)} (${exit})`,
					path: null,
					startLine: null,
					endLine: null,
					text,
				},
			],
		};
	}

	private async collect(execution: vscode.TerminalShellExecution): Promise<void> {
		let out = '';
		try {
			for await (const data of execution.read()) {
				out = (out + data).slice(-OUTPUT_TAIL_CHARS);
				this.output.set(execution, stripAnsi(out));
			}
		} catch {
			// Output is best effort: the command and exit code are still recorded.
		}
	}

	dispose(): void {
		for (const s of this.subs) s.dispose();
	}
}

function stripAnsi(s: string): string {
	return s.replace(/\x1b\][^\x07]*(\x07|\x1b\\)|\x1b\[[0-9;?]*[ -/]*[@-~]/g, '');
}
