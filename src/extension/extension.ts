/**
 * Extension entry point. `activate` stays thin and cheap: it creates the log channel, wires the
 * objects by hand and registers views, commands and the `@memory` participant. Nothing heavy
 * runs here — the decision core is pure and runs per turn; the store and models
 * start lazily in their own worker or child process.
 */
import * as vscode from 'vscode';
import { HookRegistry } from '../core/hooks';
import type { Thresholds } from '../core/thresholds';
import type { GateResult } from '../core/types';
import { workspaceId } from '../store/location';
import { ChatController } from '../chat/chatController';
import { citationUri } from './chat/citationUris';
import { registerChatParticipant } from './chat/chatParticipant';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatViewProvider';
import { COMMANDS, registerCommands, registerWelcome } from './commands';
import { indexExcludesFromConfig, maxFileBytesFromConfig, registerIndexing } from './indexing/indexCommands';
import { IndexStatus } from './indexing/indexStatus';
import { registerMemoryPanel } from './memoryPanel/inspectMemoryState';
import { GeneratorSettings } from './settings/generatorSettings';
import { errorMessage } from '../chat/logger';
import { registerMcpProvider } from './mcp/mcpProvider';
import { createModelsRuntime, ModelsUi } from './models/modelsUi';
import { ThresholdSettings } from './settings/settings';
import { storeMemory, storePersist } from '../chat/turnStore';
import { MemoryProposals } from '../chat/memoryProposals';
import { gatedPersist, gatedRecall } from '../chat/memoryWriteGate';
import { storeMemoryCommands } from '../chat/memoryCommandStore';
import { anchoredPersist, freshRecall } from '../chat/memoryFreshness';
import { wireMemoryProposals } from './chat/memoryProposalsView';
import { MemorySettings } from './settings/memorySettings';
import { registerMemoryCommands } from './memoryCommands';
import { StoreSettingsUi } from './settings/storeSettingsUi';
import { WorkspaceMemory } from '../chat/workspaceMemory';
import { InstructionFileSync } from '../chat/instructionFileSync';
import { VsCodeActionRunner } from './liveState/actionRunner';
import { createLiveStateHost } from './liveState/liveStateHost';

/** Activates Gated Memory; failures are logged and offered to the user with an "Open Log" action. */
export function activate(context: vscode.ExtensionContext): void {
	const log = vscode.window.createOutputChannel('Gated Memory', { log: true });
	context.subscriptions.push(log);
	const t0 = performance.now();
	try {
		registerAll(context, log);
		const ms = (performance.now() - t0).toFixed(1);
		log.info(
			`activated in ${ms} ms (VS Code ${vscode.version}, ${vscode.env.appName}, trusted=${vscode.workspace.isTrusted})`,
		);
	} catch (e) {
		log.error(`activation failed: ${errorMessage(e)}`);
		void vscode.window
			.showErrorMessage(`Gated Memory failed to start: ${errorMessage(e)}`, 'Open Log')
			.then((choice) => {
				if (choice) log.show(true);
			});
	}
}

function registerAll(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
	const settings = new ThresholdSettings(log);
	context.subscriptions.push(settings);
	const markWelcomeDone = registerWelcome(context);
	// The workspace index's health (status bar, Inspect Memory State: pass `() => indexStatus.snapshot()`).
	const indexStatus = new IndexStatus(context.workspaceState);
	context.subscriptions.push(indexStatus);
	// Nothing opens here: the store and the indexing worker start on first use.
	// Models load lazily in their own worker; a turn never downloads, it offers the download.
	const models = createModelsRuntime(context, log);
	// Store folder or server URL (+ scope); the password comes from SecretStorage at open time.
	const storeSettings = new StoreSettingsUi(context.secrets, log);
	context.subscriptions.push(storeSettings);
	// The window's local workspace folders, and the ids their rows carry in the store.
	const folders = () =>
		(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
	const workspaceIds = () => folders().map((f) => workspaceId(f));
	const memory: WorkspaceMemory = new WorkspaceMemory({
		log,
		location: () => storeSettings.location(),
		folders,
		indexConfig: () => ({ excludes: indexExcludesFromConfig(log), thresholds: maxFileBytesFromConfig() }),
		onIndexCrash: (m) => indexStatus.failed(m),
		models,
		onModelsMissing: (missing) => modelsUi.offer(missing),
		onStaleVectors: () => modelsUi.staleVectors(),
	});
	// AGENTS.md & co.: read into the store the first time it opens (trusted only), then by the watcher.
	const instructionFiles = new InstructionFileSync({
		log,
		folders,
		isTrusted: () => vscode.workspace.isTrusted,
		thresholds: () => settings.current(),
	});
	const openStore = () => memory.openStore().then(async (s) => (await instructionFiles.ensure(s), s));
	const modelsUi = new ModelsUi(models, () => memory, log);
	context.subscriptions.push({ dispose: () => void memory.dispose() }, modelsUi, {
		dispose: () => void models.dispose(),
	});
	// The generator is created on first use and re-created when its settings change (header follows).
	const generators = new GeneratorSettings(context.secrets, log, (info) => controller.setGeneratorInfo(info));
	context.subscriptions.push(generators);
	// gatedMemory.memory.writes / .reads: confirm mode's proposals wait in the store for the user.
	const memorySettings = new MemorySettings(log);
	const isRestricted = () => !vscode.workspace.isTrusted;
	const proposals = new MemoryProposals({
		log,
		openStore: () => memory.openStore(),
		embedder: () => memory.embedder(),
		workspaceIds,
		thresholds: () => settings.current(),
		isRestricted,
	});
	// A memory marked stale during chat, or forgotten from chat: an open Inspect Memory State refreshes.
	const memoryChanged = new vscode.EventEmitter<void>();
	context.subscriptions.push(memoryChanged);
	const freshness = {
		openStore: () => memory.openStore(),
		workspaceIds,
		decayDays: () => memorySettings.decayDays(),
		onMemoryChange: () => memoryChanged.fire(),
	};
	// One set of turn ports for the panel and @memory: the same retrieval, write path and hooks.
	const turnPorts = {
		retrieve: (query: string, result: GateResult, thresholds: Thresholds) =>
			memory.retrieve(query, result, thresholds).then((r) => storeSettings.watch(r)),
		persist: gatedPersist(
			anchoredPersist(
				storePersist({
					openStore,
					embedder: () => memory.embedder(),
					workspaceIds,
					thresholds: () => settings.current(),
				}),
				freshness,
			),
			{ mode: () => memorySettings.writes(), proposals },
		),
		// Reads setting first, then staleness and "why recalled" on what was read.
		memory: gatedRecall(
			freshRecall(storeMemory({ openStore, embedder: () => memory.embedder(), workspaceIds }), freshness),
			() => memorySettings.reads(),
		),
		// "remember that …" / "forget that …" typed in chat: the reply words the write mode; forget + Undo on the store.
		memoryCommands: {
			writeMode: () => memorySettings.writes(),
			store: storeMemoryCommands({
				openStore,
				embedder: () => memory.embedder(),
				workspaceIds,
				onChange: () => memoryChanged.fire(),
			}),
		},
		toUri: citationUri(folders),
		hooks: new HookRegistry(),
		live: createLiveStateHost(context),
	};
	const controller = new ChatController({
		log,
		thresholds: () => settings.current(),
		isRestricted,
		onFirstMessage: markWelcomeDone,
		...turnPorts,
		generator: () => generators.generator(),
		state: context.workspaceState,
		actions: new VsCodeActionRunner(),
	});
	generators.refresh('activation');
	context.subscriptions.push(
		vscode.commands.registerCommand(COMMANDS.setApiKey, () => generators.setApiKey()),
		vscode.commands.registerCommand(COMMANDS.clearApiKey, () => generators.clearApiKey()),
	);
	const provider = new ChatViewProvider(context.extensionUri, controller, log);
	context.subscriptions.push({ dispose: wireMemoryProposals({ provider, controller, proposals, log }) });
	context.subscriptions.push(
		vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, provider),
		// Trust granted mid-session lifts Restricted Mode: tell the panel so the banner goes.
		vscode.workspace.onDidGrantWorkspaceTrust(() => controller.sendState()),
		// A folder added later brings its own instruction files.
		vscode.workspace.onDidChangeWorkspaceFolders((e) => {
			for (const f of e.added)
				if (f.uri.scheme === 'file' && instructionFiles.started)
					void openStore().then(
						(s) => instructionFiles.folderAdded(s, f.uri.fsPath),
						() => undefined,
					);
		}),
	);
	const memoryState = registerMemoryPanel(context, {
		log,
		openStore,
		sessionDecisions: () => controller.session.recentDecisions,
		thresholds: () => settings.rows(),
		// Null = never indexed here (the panel says "not indexed yet"); a first run in progress shows.
		indexHealth: () => {
			const h = indexStatus.snapshot();
			return h.lastRun === null && h.state === 'idle' ? null : h;
		},
		onIndexChange: indexStatus.onDidChange,
		onMemoryChange: memoryChanged.event,
		embedder: () => memory.embedder(),
		writeThresholds: () => settings.current(),
		decayDays: () => memorySettings.decayDays(),
	});
	registerCommands(context, { log, controller, provider, memoryState, memory, indexStatus });
	registerIndexing(context, {
		log,
		memory,
		status: indexStatus,
		thresholds: () => settings.current(),
		inspectCommand: COMMANDS.inspectMemoryState,
		// Before the store's first open there is nothing to refresh: that open reads every file.
		onInstructionFile: (root, rel) => {
			if (instructionFiles.started)
				void openStore().then(
					(s) => instructionFiles.changed(s, root, rel),
					(e) => log.warn(`instruction file ${rel} not synced: ${errorMessage(e)}`),
				);
		},
	});
	registerMemoryCommands(context, { log, memory, thresholds: () => settings.current() });
	registerChatParticipant(context, { log, settings, ports: turnPorts });
	// gmem mcp for agent mode, on this window's store and first folder (where VS Code has the API).
	registerMcpProvider(context, { log, location: () => storeSettings.location(), folders });
	log.debug(`commands: ${Object.values(COMMANDS).join(', ')}`);
}

/** Nothing to release beyond `context.subscriptions`. */
export function deactivate(): void {
	// Intentionally empty: every resource is a disposable in context.subscriptions.
}
