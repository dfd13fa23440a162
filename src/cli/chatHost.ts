/**
 * The editor's chat turn, hosted in a terminal: the same ChatController, turn pipeline, workspace
 * retrieval (WorkspaceMemory with the extension's model defaults, built-in embedder and reranker),
 * memory recall and write path as the panel, on the store `--db` / `$GMEM_DB` names. Only what a
 * terminal cannot have is missing — live editor state — and every turn's trace says so. Indexing
 * runs in-process (as `gmem index` does) with the embedder the turn's vector arm uses.
 */
import { resolve } from 'node:path';
import { decideTurn } from '../core/decide';
import { HookRegistry } from '../core/hooks';
import type { Thresholds } from '../core/thresholds';
import type { GateResult } from '../core/types';
import { Indexer, type FolderIndexResult } from '../indexing/indexer';
import type { Generator } from '../generation/generator';
import { ChatController, type PostFn } from '../chat/chatController';
import type { Logger } from '../chat/logger';
import { DEFAULT_MODEL_SETTINGS, ModelsRuntime, type ModelSettings } from '../chat/modelsRuntime';
import { storeMemory, storePersist } from '../chat/turnStore';
import { storeMemoryCommands } from '../chat/memoryCommandStore';
import { WorkspaceMemory } from '../chat/workspaceMemory';
import { defaultModelCacheDir } from '../models/modelServices';
import { resolveStoreLocation, workspaceId, type StoreLocation } from '../store/location';
import type { AssistantEntry } from '../chat/conversationSession';

/** The note every CLI turn's trace carries (the editor's live state has no terminal equivalent). */
export const NO_LIVE_STATE = 'no live state in the CLI: open editors, selection and problems are not available';

export interface ChatHostOptions {
	location: StoreLocation;
	/** The workspace folder whose index and memory the turns use. */
	workspace: string;
	thresholds: Thresholds;
	generator: Generator;
	log: Logger;
	models?: Partial<ModelSettings>;
	/** Experiment hooks (tests register `before_persist` here). */
	hooks?: HookRegistry;
	/** Host → panel messages, for callers that want them (tests check chat/persisted). */
	post?: PostFn;
	/** Search and answer but write nothing (evaluation replays: every arm sees the same store). */
	readOnly?: boolean;
	/**
	 * 'live': turns happen when they are typed (the real clock). 'replay' (default): a conversation
	 * read from a file; each turn is REPLAY_TURN_GAP_MS after the previous one unless it says when.
	 */
	clock?: 'live' | 'replay';
}

/**
 * One minute between replayed turns: a file arrives all at once, and turns milliseconds apart would
 * read as rapid fire (rapid_fire_window_ms, 30 s by default) and change the decisions; a minute
 * apart is an ordinary exchange. A row's own `at` wins.
 */
export const REPLAY_TURN_GAP_MS = 60_000;

/** One answered turn as `gmem chat` prints it. */
export interface ChatTurnOutput {
	turn: string;
	reply: string;
	citations: NonNullable<AssistantEntry['citations']>;
	status: AssistantEntry['status'] | 'error';
	/** The decision core's result (the `gmem gate` object); null when the core failed. */
	decision: GateResult | null;
	/** The final trace: decision, retrieval, generation and what persisting wrote. */
	trace: AssistantEntry['trace'];
	error?: string;
}

/** A headless chat session over one store and workspace. */
export class ChatHost {
	readonly memory: WorkspaceMemory;
	readonly controller: ChatController;
	private readonly models: ModelsRuntime;
	private folder: string;
	private turns = 0;
	private lastDecision: GateResult | null = null;
	private clockMs = Date.now();

	constructor(private readonly options: ChatHostOptions) {
		this.folder = resolve(options.workspace);
		const settings: ModelSettings = { ...DEFAULT_MODEL_SETTINGS, ...options.models };
		this.models = new ModelsRuntime({ log: options.log, cacheDir: defaultModelCacheDir(), settings: () => settings });
		this.memory = new WorkspaceMemory({
			log: options.log,
			location: () => options.location,
			folders: () => [this.folder],
			models: this.models,
		});
		const ids = () => [workspaceId(this.folder)];
		const base = {
			openStore: () => this.memory.openStore(),
			embedder: () => this.memory.embedder(),
			workspaceIds: ids,
		};
		this.controller = new ChatController({
			log: options.log,
			thresholds: () => options.thresholds,
			isRestricted: () => false,
			retrieve: (q, r, t) => this.memory.retrieve(q, r, t),
			...(options.readOnly
				? {}
				: {
						persist: storePersist({ ...base, thresholds: () => options.thresholds }),
						// The CLI writes as `auto` does; a forget's Undo cannot be clicked here (the reply says what was forgotten).
						memoryCommands: { writeMode: () => 'auto' as const, store: storeMemoryCommands(base) },
					}),
			memory: storeMemory(base),
			hooks: options.hooks ?? new HookRegistry(),
			generator: () => Promise.resolve(options.generator),
			decide: (input, o) => (this.lastDecision = decideTurn(input, o)),
			hostNotes: [NO_LIVE_STATE],
			now: options.clock === 'live' ? Date.now : () => this.clockMs,
		});
		if (options.post) this.controller.attach(options.post);
	}

	get workspace(): string {
		return this.folder;
	}

	/** Switches the workspace the next turns search and write (a new conversation starts). */
	async useWorkspace(dir: string): Promise<void> {
		const next = resolve(dir);
		if (next === this.folder) return;
		this.folder = next;
		this.memory.indexChanged();
		await this.controller.newConversation();
	}

	/** Indexes a folder into the workspace tier with the embedder the turns' vector arm uses, then works in it. */
	async index(dir: string): Promise<FolderIndexResult> {
		const root = resolve(dir);
		await this.useWorkspace(root);
		const store = await this.memory.openStore();
		const active = await this.memory.activeEmbedder();
		const indexer = new Indexer({
			db: store.db,
			embedder: active.status === 'ready' ? active.embedder : null,
			thresholds: this.options.thresholds,
			workspaceIdOf: () => workspaceId(root),
		});
		try {
			const [r] = await indexer.indexFolders([root]);
			return r;
		} finally {
			this.memory.indexChanged();
		}
	}

	/** Starts a new conversation (the old one's memories stay in the store). */
	newConversation(): Promise<void> {
		return this.controller.newConversation();
	}

	/**
	 * Replaying a recorded conversation: the recorded assistant reply stands for the last generated
	 * one in the history the next turns are decided on (and the model's window). False: no reply yet.
	 */
	recordReply(text: string): boolean {
		return this.turns > 0 && this.controller.session.useRecordedReply(`cli-${this.turns}`, text);
	}

	/** Answers one user message through the pipeline; resolves after persisting, with the final trace. */
	async say(text: string, at?: number): Promise<ChatTurnOutput> {
		const turnId = `cli-${++this.turns}`;
		this.clockMs = at ?? (this.turns === 1 ? this.clockMs : this.clockMs + REPLAY_TURN_GAP_MS);
		this.lastDecision = null;
		await this.controller.send(turnId, text);
		const entry = this.controller.session.entries.find((e) => e.turnId === turnId && e.kind !== 'user');
		const decision = this.lastDecision;
		if (entry?.kind === 'assistant') {
			return {
				turn: turnId,
				reply: entry.markdown,
				citations: entry.citations ?? [],
				status: entry.status ?? 'done',
				decision,
				trace: entry.trace,
			};
		}
		const message = entry?.kind === 'error' ? entry.message : 'no reply (empty message)';
		return { turn: turnId, reply: '', citations: [], status: 'error', decision, trace: null, error: message };
	}

	async dispose(): Promise<void> {
		await this.memory.dispose();
		await this.models.dispose();
	}
}

/** The store location for `--db` / `--scope` (the other store commands' resolver). */
export function chatStoreLocation(
	db: string | undefined,
	scope: string | undefined,
	env: NodeJS.ProcessEnv,
	cwd: string,
): StoreLocation {
	return resolveStoreLocation(db, env, cwd, scope);
}
