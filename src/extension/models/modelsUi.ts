/**
 * The `vscode` side of the models: settings (`gatedMemory.models.*`), the consent prompt
 * ("Download all-MiniLM-L6-v2 (≈23 MB)?" — Download / Use Local Folder / Not Now), a cancellable
 * progress notification with bytes, the "Download Models" command, and background re-embedding
 * with progress when the embedder changes or a model arrives. Nothing is downloaded without a
 * yes, and nothing at all in Restricted Mode.
 */
import * as vscode from 'vscode';
import type { ModelManifest } from '../../models/manifests';
import type { ModelProgress } from '../../models/modelManager';
import { runExclusive } from '../indexing/indexWorkspaceCommand';
import { errorMessage } from '../../chat/logger';
import { proxyFor, tunnelAgent } from './modelsProxy';
import { ModelsRuntime, type ModelSettings } from '../../chat/modelsRuntime';
import { parseModelSettings } from '../../chat/retrievalConfig';
import type { WorkspaceMemory } from '../../chat/workspaceMemory';

export const DOWNLOAD_MODELS_COMMAND = 'gatedMemory.downloadModels';

/** Reads `gatedMemory.models.*`; unknown values fall back to the defaults. */
export function readModelSettings(): ModelSettings {
	const c = vscode.workspace.getConfiguration('gatedMemory.models');
	return parseModelSettings((key) => c.get(key));
}

/** The runtime for this window: cache in global storage, downloads through `http.proxy`. */
export function createModelsRuntime(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): ModelsRuntime {
	return new ModelsRuntime({
		log,
		cacheDir: vscode.Uri.joinPath(context.globalStorageUri, 'models').fsPath,
		settings: readModelSettings,
		agent: () => {
			const hub = readModelSettings().hubEndpoint;
			const http = vscode.workspace.getConfiguration('http');
			const proxy = proxyFor(http.get<string>('proxy'), process.env, hub);
			if (!proxy) return undefined;
			try {
				return tunnelAgent(proxy, hub, http.get<boolean>('proxyStrictSSL', true));
			} catch (e) {
				log.warn(`proxy not used: ${errorMessage(e)}`);
				return undefined;
			}
		},
	});
}

// The quantised exports are ≈23 MB each (docs/models.md); the manifests' sizes are unverified.
function sizeLabel(models: readonly ModelManifest[]): string {
	const bytes = models.map((m) =>
		Object.values(m.files).reduce(
			(n, f) => (typeof f.size === 'number' && typeof n === 'number' ? n + f.size : 'unverified'),
			0 as number | 'unverified',
		),
	);
	if (bytes.every((b): b is number => typeof b === 'number'))
		return `${(bytes.reduce((a, b) => a + b, 0) / 1e6).toFixed(0)} MB`;
	return `≈${23 * models.length} MB`;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** Wires the command, the consent offer, settings changes and background re-embedding. */
export class ModelsUi implements vscode.Disposable {
	private readonly subscriptions: vscode.Disposable[] = [];
	private reembedding: Promise<void> | null = null;
	private lastStaleRun = 0;
	private downloading = false;

	constructor(
		private readonly runtime: ModelsRuntime,
		private readonly memory: () => WorkspaceMemory,
		private readonly log: vscode.LogOutputChannel,
	) {
		this.subscriptions.push(
			vscode.commands.registerCommand(DOWNLOAD_MODELS_COMMAND, () => this.downloadCommand()),
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (!e.affectsConfiguration('gatedMemory.models')) return;
				const s = readModelSettings();
				this.log.info(
					`model settings changed: embedder "${s.embedder}", reranker "${s.reranker}"${s.localPath ? `, local folder ${s.localPath}` : ''}`,
				);
				void this.runtime.refresh().then(() => this.reembedInBackground());
			}),
		);
	}

	/** Called when a chat turn wanted a model that is not here: ask once, never block the turn. */
	offer(missing: readonly ModelManifest[]): void {
		if (!vscode.workspace.isTrusted || this.downloading) return;
		void this.consentAndDownload(missing, false).catch((e: unknown) =>
			this.log.error(`model download: ${errorMessage(e)}`),
		);
	}

	private async downloadCommand(): Promise<void> {
		if (!vscode.workspace.isTrusted) {
			void vscode.window.showInformationMessage(
				'Gated Memory: models are not downloaded in Restricted Mode. Trust this workspace first.',
			);
			return;
		}
		const missing = this.runtime.missing();
		if (!missing.length) {
			const s = this.runtime.settings();
			const what =
				s.embedder === 'minilm' || s.reranker === 'minilm'
					? 'the configured models are already here'
					: `nothing to download: embedder "${s.embedder}", reranker "${s.reranker}" (set gatedMemory.models.embedder or .reranker to "minilm")`;
			void vscode.window.showInformationMessage(`Gated Memory: ${what}.`);
			await this.reembedInBackground();
			return;
		}
		await this.consentAndDownload(missing, true);
	}

	private async consentAndDownload(missing: readonly ModelManifest[], modal: boolean): Promise<void> {
		const names = missing.map((m) => m.name).join(' and ');
		const hub = this.runtime.settings().hubEndpoint;
		const choice = await vscode.window.showInformationMessage(
			`Gated Memory: download ${names} (${sizeLabel(missing)}) from ${hub}? They run locally; until then search is lexical-only${missing.some((m) => m.kind === 'reranker') ? ' and unreranked' : ''}.`,
			{ modal },
			'Download',
			'Use Local Folder',
			'Not Now',
		);
		if (choice === 'Use Local Folder') return this.pickLocalFolder();
		if (choice !== 'Download') {
			this.log.info(`model download declined: ${names}`);
			return;
		}
		this.downloading = true;
		try {
			for (const m of missing) if (!(await this.downloadOne(m))) return;
		} finally {
			this.downloading = false;
		}
		await this.reembedInBackground();
	}

	private async downloadOne(m: ModelManifest): Promise<boolean> {
		const ac = new AbortController();
		const r = await vscode.window.withProgress(
			{
				location: vscode.ProgressLocation.Notification,
				title: `Gated Memory: downloading ${m.name}`,
				cancellable: true,
			},
			(progress, token) => {
				token.onCancellationRequested(() => ac.abort());
				let last = 0;
				return this.runtime.download(m, ac.signal, (p: ModelProgress) => {
					const now = performance.now();
					if (now - last < 150 && p.received !== p.total) return;
					last = now;
					progress.report({
						message: `${p.file} (${p.index}/${p.count}): ${mb(p.received)}${p.total ? ` of ${mb(p.total)}` : ''}`,
					});
				});
			},
		);
		if (r.ok) {
			this.log.info(`model ready: ${m.name} in ${r.dir}`);
			return true;
		}
		if (ac.signal.aborted || r.error.code === 'cancelled') {
			void vscode.window.showInformationMessage(
				`Gated Memory: download of ${m.name} cancelled; the next attempt resumes where it stopped.`,
			);
			return false;
		}
		this.log.error(`model download failed: ${r.error.code}: ${r.error.message}`);
		void vscode.window
			.showErrorMessage(`Gated Memory: ${m.name} could not be downloaded: ${r.error.message}`, 'Open Log')
			.then((c) => c && this.log.show(true));
		return false;
	}

	private async pickLocalFolder(): Promise<void> {
		const picked = await vscode.window.showOpenDialog({
			canSelectFolders: true,
			canSelectFiles: false,
			openLabel: 'Use This Model Folder',
			title: 'Folder holding the model files (e.g. <folder>/Xenova/all-MiniLM-L6-v2/)',
		});
		if (!picked?.[0]) return;
		await vscode.workspace
			.getConfiguration('gatedMemory.models')
			.update('localPath', picked[0].fsPath, vscode.ConfigurationTarget.Global);
		const still = this.runtime.missing();
		if (still.length)
			void vscode.window.showWarningMessage(
				`Gated Memory: ${still.map((m) => m.name).join(', ')} not found in ${picked[0].fsPath} (expected <folder>/${still[0].repo}/ or <folder>/${still[0].name}/ with ${Object.values(
					still[0].files,
				)
					.map((f) => f.path)
					.join(', ')}).`,
			);
	}

	/** A turn saw chunks without the active embedder's vectors: re-embed, at most once a minute from turns. */
	staleVectors(): void {
		if (this.reembedding || Date.now() - this.lastStaleRun < 60_000) return;
		this.lastStaleRun = Date.now();
		void this.reembedInBackground();
	}

	/** Re-embeds the workspace with the active embedder if some chunks lack its vectors (cancellable progress). */
	reembedInBackground(): Promise<void> {
		if (!vscode.workspace.isTrusted) return Promise.resolve();
		// One index writer at a time: queued behind Index Workspace and the file watcher's batches.
		this.reembedding ??= runExclusive(() => this.reembed()).finally(() => (this.reembedding = null));
		return this.reembedding;
	}

	private async reembed(): Promise<void> {
		const memory = this.memory();
		const active = await memory.activeEmbedder();
		if (active.status !== 'ready') return this.log.info(`no re-embedding: ${active.reason}`);
		const ac = new AbortController();
		try {
			const done = await vscode.window.withProgress(
				{
					location: vscode.ProgressLocation.Notification,
					title: `Gated Memory: re-embedding the workspace with ${active.label}`,
					cancellable: true,
				},
				(progress, token) => {
					token.onCancellationRequested(() => ac.abort());
					return memory.reembedIfNeeded({
						signal: ac.signal,
						onProgress: (p) =>
							progress.report({
								message: `${p.files_done}${p.files_total ? ` of ${p.files_total}` : ''} files, ${p.chunks} chunks`,
							}),
					});
				},
			);
			if (done) this.log.info(`re-embedded with ${active.id}`);
		} catch (e) {
			if (ac.signal.aborted)
				return this.log.info(
					"re-embedding cancelled: chunks without the active model's vectors are searched lexical-only",
				);
			this.log.error(`re-embedding failed: ${errorMessage(e)}`);
		}
	}

	dispose(): void {
		for (const s of this.subscriptions) s.dispose();
	}
}
