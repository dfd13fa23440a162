/**
 * The generator chosen in settings: `gatedMemory.generator` (auto | lm | openai | evidence), the
 * OpenAI-compatible endpoint's `gatedMemory.openai.baseUrl` / `.model`, and its API key — kept only
 * in SecretStorage (set and cleared by commands, never in settings or workspace state). The
 * generator is re-created when any of them (or the LM API's model list) changes, and the panel's
 * header is told. Listing LM-API models needs no consent; a request is only sent when the user
 * sends a message.
 */
import * as vscode from 'vscode';
import { createGenerator, type GeneratorConfig } from '../../generation/createGenerator';
import type { Generator, GeneratorInfo } from '../../generation/generator';
import type { LmPort } from '../../generation/lmGenerator';
import { vscodeLmPort } from '../chat/lmApi';
import { errorMessage, type Logger } from '../../chat/logger';

/** SecretStorage key of the OpenAI-compatible endpoint's API key. */
export const API_KEY_SECRET = 'gatedMemory.openai.apiKey';
const GENERATOR_KINDS = ['auto', 'lm', 'openai', 'evidence'] as const;

/** Reads the generator settings (an unknown value falls back to 'auto' with a warning). */
export function readGeneratorConfig(
	config: vscode.WorkspaceConfiguration,
	apiKey: string | null,
	log?: Logger,
): GeneratorConfig {
	const raw = config.get<string>('generator', 'auto');
	const kind = (GENERATOR_KINDS as readonly string[]).includes(raw) ? (raw as GeneratorConfig['kind']) : 'auto';
	if (kind !== raw) log?.warn(`gatedMemory.generator: unknown value ${JSON.stringify(raw)}, using "auto"`);
	return {
		kind,
		openai: {
			baseUrl: config.get<string>('openai.baseUrl', '').trim(),
			model: config.get<string>('openai.model', '').trim(),
			apiKey,
		},
	};
}

/** Owns the current generator; `onChange` hears each new one's info. */
export class GeneratorSettings implements vscode.Disposable {
	private current: Promise<Generator> | null = null;
	private readonly subscriptions: vscode.Disposable[] = [];
	private readonly lm: LmPort = vscodeLmPort();

	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly log: Logger,
		private readonly onChange: (info: GeneratorInfo) => void,
	) {
		this.subscriptions.push(
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('gatedMemory.generator') || e.affectsConfiguration('gatedMemory.openai'))
					this.refresh('settings changed');
			}),
			secrets.onDidChange((e) => {
				if (e.key === API_KEY_SECRET) this.refresh('API key changed');
			}),
		);
		// Hosts without the LM API (code-server) have no model-change event.
		const lm: Partial<typeof vscode.lm> | undefined = vscode.lm;
		if (typeof lm?.onDidChangeChatModels === 'function')
			this.subscriptions.push(lm.onDidChangeChatModels(() => this.refresh('language models changed')));
	}

	/** The generator to use now (created on first use, then cached until something changes). */
	generator(): Promise<Generator> {
		this.current ??= this.create();
		return this.current;
	}

	/** Re-creates the generator and announces it. */
	refresh(why: string): void {
		this.log.info(`generator: re-creating (${why})`);
		this.current = this.create();
		this.current.then(
			(g) => this.onChange(g.info),
			(e: unknown) => this.log.warn(`generator not created (${why}): ${e instanceof Error ? e.message : String(e)}`),
		);
	}

	/** Asks for the API key (password box) and stores it in SecretStorage. */
	async setApiKey(): Promise<void> {
		const key = await vscode.window.showInputBox({
			title: 'Gated Memory: API key for the OpenAI-compatible endpoint',
			prompt:
				'Stored in VS Code SecretStorage (the OS keychain), never in settings. Leave empty to keep the current key.',
			password: true,
			ignoreFocusOut: true,
		});
		if (!key?.trim()) return;
		await this.secrets.store(API_KEY_SECRET, key.trim());
		void vscode.window.showInformationMessage('Gated Memory: API key saved in SecretStorage.');
	}

	/** Removes the stored API key. */
	async clearApiKey(): Promise<void> {
		await this.secrets.delete(API_KEY_SECRET);
		void vscode.window.showInformationMessage('Gated Memory: API key removed.');
	}

	dispose(): void {
		for (const s of this.subscriptions) s.dispose();
	}

	private async create(): Promise<Generator> {
		let apiKey: string | null = null;
		try {
			apiKey = (await this.secrets.get(API_KEY_SECRET)) ?? null;
		} catch (e) {
			this.log.warn(`API key not readable from SecretStorage: ${errorMessage(e)}`);
		}
		const config = readGeneratorConfig(vscode.workspace.getConfiguration('gatedMemory'), apiKey, this.log);
		const generator = await createGenerator(config, { lm: this.lm });
		this.log.info(`generator: ${generator.info.label} (setting "${config.kind}"${apiKey ? ', API key set' : ''})`);
		return generator;
	}
}
