/**
 * The store settings in VS Code: reads `gatedMemory.storage.path`, `gatedMemory.database.url` and
 * `gatedMemory.database.scope`, keeps the database password in SecretStorage (commands "Set
 * Database Password" / "Clear Database Password"), and tells the user — with "Open Settings" —
 * when the store cannot be opened. The location is resolved when the store is first opened.
 */
import * as vscode from 'vscode';
import type { StoreLocation } from '../../store/location';
import type { Logger } from '../../chat/logger';
import { DATABASE_PASSWORD_SECRET, resolveStoreSettings, storeFailureAdvice, withoutPassword } from './storeSettings';

export const STORE_COMMANDS = {
	setDatabasePassword: 'gatedMemory.setDatabasePassword',
	clearDatabasePassword: 'gatedMemory.clearDatabasePassword',
} as const;

const OPEN_SETTINGS = 'Open Settings';
const SET_PASSWORD = 'Set Database Password';
const MOVE_PASSWORD = 'Move Password to Keychain';

/** Settings + secret for the store; one per window. */
export class StoreSettingsUi implements vscode.Disposable {
	private password: string | null = null;
	private loaded: Promise<void>;
	private lastFailure = '';
	private readonly subscriptions: vscode.Disposable[] = [];

	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly log: Logger,
	) {
		this.loaded = this.loadPassword();
		this.subscriptions.push(
			secrets.onDidChange((e) => {
				if (e.key === DATABASE_PASSWORD_SECRET) this.loaded = this.loadPassword();
			}),
			vscode.commands.registerCommand(STORE_COMMANDS.setDatabasePassword, () => this.setPassword()),
			vscode.commands.registerCommand(STORE_COMMANDS.clearDatabasePassword, () => this.clearPassword()),
		);
	}

	/** Resolves once the stored password has been read (activation does not wait for it). */
	ready(): Promise<void> {
		return this.loaded;
	}

	/** The store to open now: the password is put into a server URL here and nowhere else. */
	location(): StoreLocation {
		const config = vscode.workspace.getConfiguration('gatedMemory');
		const resolved = resolveStoreSettings({
			storagePath: config.get<string>('storage.path'),
			databaseUrl: config.get<string>('database.url'),
			scope: config.get<string>('database.scope'),
			password: this.password,
			env: process.env,
		});
		this.log.info(
			`memory store: ${resolved.display}${resolved.location.scope ? ` (scope ${resolved.location.scope})` : ''}`,
		);
		for (const w of resolved.warnings) {
			this.log.warn(w);
			void this.warn(w, resolved.passwordInUrl);
		}
		return resolved.location;
	}

	/** Tells the user once per distinct failure that the store is unavailable, with what to do. */
	reportFailure(message: string): void {
		if (message === this.lastFailure) return;
		this.lastFailure = message;
		const advice = storeFailureAdvice(message);
		const actions = [...(advice.password ? [SET_PASSWORD] : []), ...(advice.settings ? [OPEN_SETTINGS] : [])];
		void vscode.window.showWarningMessage(advice.text, ...actions).then((choice) => this.act(choice));
	}

	/** Passes a retrieval reply through, reporting a store that could not be opened. */
	watch<T extends { status: string; message?: string }>(reply: T): T {
		if (reply.status === 'error' && reply.message && /memory store/.test(reply.message))
			this.reportFailure(reply.message);
		return reply;
	}

	private async warn(message: string, passwordInUrl: boolean): Promise<void> {
		const choice = await vscode.window.showWarningMessage(
			message,
			...(passwordInUrl ? [MOVE_PASSWORD] : []),
			OPEN_SETTINGS,
		);
		await this.act(choice);
	}

	private async act(choice: string | undefined): Promise<void> {
		if (choice === OPEN_SETTINGS)
			await vscode.commands.executeCommand('workbench.action.openSettings', 'gatedMemory.database');
		else if (choice === SET_PASSWORD) await this.setPassword();
		else if (choice === MOVE_PASSWORD) await this.movePasswordToKeychain();
	}

	private async loadPassword(): Promise<void> {
		this.password = (await this.secrets.get(DATABASE_PASSWORD_SECRET)) ?? null;
	}

	private async setPassword(): Promise<void> {
		const value = await vscode.window.showInputBox({
			title: 'Gated Memory: database password',
			prompt:
				'Password for gatedMemory.database.url. It is kept in the OS keychain (SecretStorage), never in settings.',
			password: true,
			ignoreFocusOut: true,
		});
		if (value === undefined) return;
		await this.secrets.store(DATABASE_PASSWORD_SECRET, value);
		await this.reloadHint('Database password saved in the OS keychain.');
	}

	private async clearPassword(): Promise<void> {
		await this.secrets.delete(DATABASE_PASSWORD_SECRET);
		await this.reloadHint('Database password removed from the OS keychain.');
	}

	/** Takes the password out of the URL setting into SecretStorage; the setting keeps the rest. */
	private async movePasswordToKeychain(): Promise<void> {
		const config = vscode.workspace.getConfiguration('gatedMemory');
		const url = config.get<string>('database.url')?.trim();
		if (!url) return;
		const password = decodeURIComponent(new URL(url).password);
		await this.secrets.store(DATABASE_PASSWORD_SECRET, password);
		await config.update('database.url', withoutPassword(url), vscode.ConfigurationTarget.Global);
		await this.reloadHint(
			'The database password now lives in the OS keychain; gatedMemory.database.url no longer holds it.',
		);
	}

	// The store stays open with the location it was opened with: a new one takes a window reload.
	private async reloadHint(message: string): Promise<void> {
		const choice = await vscode.window.showInformationMessage(
			`${message} Reload the window to reconnect with it.`,
			'Reload Window',
		);
		if (choice) await vscode.commands.executeCommand('workbench.action.reloadWindow');
	}

	dispose(): void {
		for (const s of this.subscriptions) s.dispose();
	}
}
