/**
 * The typed host⇄webview protocol of the "Inspect Memory State" panel: one map per direction,
 * a guard for every message (checked on receipt on both sides), the same `Messenger` as the chat
 * panel. Pure: the memory webview bundle imports only this module (and, through it,
 * protocol.ts / protocolGuards.ts).
 */
import {
	arrayOf,
	isBoolean,
	isNumber,
	isRecord,
	isString,
	nullable,
	object,
	oneOf,
	optional,
	recordOf,
	discriminated,
	type Guard,
	type MessageGuards,
	type MessageOf,
	type NoParams,
} from './protocol';

export { Messenger, type MessageTransport, type MessageOf } from './protocol';

/** The four memory tiers as the panel shows them (the conversation is stored, never searched). */
export const MEMORY_TIERS = ['workspace', 'research', 'profile', 'conversation'] as const;
export type MemoryTier = (typeof MEMORY_TIERS)[number];

/** One tier's row: item count, a short breakdown, stored text bytes and the last write (ms). */
export interface TierSummary {
	tier: MemoryTier;
	items: number;
	/** e.g. "12 files, 80 chunks (0 with vectors)". */
	detail: string;
	bytes: number;
	lastWrite: number | null;
}

/** A current profile value (fact, preference or standing instruction) with its history size. */
export interface ProfileItem {
	workspaceId: string;
	key: string;
	value: string;
	kind: 'fact' | 'preference' | 'instruction';
	since: number;
	/** Earlier values kept as history. */
	history: number;
}

/** A research memory (recent first); `supersededBy` set when a correction replaced it. */
export interface MemoryItem {
	workspaceId: string;
	docId: string;
	kind: 'qa' | 'decision' | 'correction' | 'note';
	content: string;
	at: number;
	superseded: boolean;
	/** The turn that wrote it (Inspect Memory State can open it), when known. */
	sourceTurn?: string | null;
}

/** A correction and the memories it superseded. */
export interface CorrectionItem {
	workspaceId: string;
	docId: string;
	content: string;
	at: number;
	superseded: { docId: string; content: string }[];
}

/** A decision: from this session (in memory) or stored with a conversation turn. */
export interface DecisionItem {
	turnId: string;
	at: number;
	utterance: string;
	trigger: string;
	path: string;
	tiers: string[];
	route: string;
	source: 'session' | 'stored';
}

/** Index health as the indexer reports it (null in `index` = not indexed in this window yet). */
export interface IndexHealthView {
	state: 'idle' | 'indexing' | 'error';
	/** 0–100 while a full run knows its file count; null otherwise. */
	percent: number | null;
	/** Indexed files / chunks of this window's folders after the last run or batch. */
	files: number;
	chunks: number;
	/** Files left out by the last full run, by reason (secret, ignored, too_large…). */
	skipped: Record<string, number>;
	/** When the last run or batch finished (ms since the epoch); null: never indexed here. */
	lastRun: number | null;
	lastError: string | null;
}

/** The store as it is: engine, schema, where (a URL never carries its password). */
export interface StoreInfo {
	engine: string;
	schemaVersion: number;
	where: string;
	/** Where the location came from: setting, GMEM_DB, default, database URL setting. */
	source: string;
}

/** One threshold in force. */
export interface ThresholdView {
	name: string;
	value: number;
	default: number;
	source: 'setting' | 'default';
	rationale: string;
}

/** Everything the panel shows, gathered by the host in one go. */
export interface MemoryPanelState {
	generatedAt: number;
	/** Restricted Mode: the panel is read-only and says why. */
	restricted: boolean;
	/** Workspace folders whose rows are shown. */
	workspaceFolders: number;
	store: StoreInfo | null;
	/** Why the store could not be read (the rest of the panel still shows). */
	storeError: string | null;
	tiers: TierSummary[];
	profile: ProfileItem[];
	memories: MemoryItem[];
	corrections: CorrectionItem[];
	decisions: DecisionItem[];
	/** Files and chunks of the workspace tier, read from the store. */
	indexedFiles: number;
	indexedChunks: number;
	index: IndexHealthView | null;
	thresholds: ThresholdView[];
	/** Memories awaiting approval (`gatedMemory.memory.writes: confirm`); absent from older hosts. */
	pending?: PendingMemoryItem[];
	/** Memories whose cited code changed or is gone, to review (keep / update / forget). */
	stale?: StaleMemoryItem[];
	/** Memories demoted from recall by `gatedMemory.memory.decayDays` (kept; Restore brings one back). */
	demoted?: DemotedMemoryItem[];
}

export interface DemotedMemoryItem {
	workspaceId: string;
	docId: string;
	content: string;
	idleDays: number;
}

/** A memory citing code that changed or is gone since it was written. */
export interface StaleMemoryItem {
	workspaceId: string;
	docId: string;
	content: string;
	/** What it cites: "src/a.ts:10-24 (parseConfig)". */
	cites: string;
	checkedAt: number | null;
}

/** The one-click review of a stale memory. */
export interface ReviewStaleParams {
	workspaceId: string;
	docId: string;
	action: 'keep' | 'update' | 'forget' | 'restore';
}

/** A proposed memory not yet approved or discarded (approve or discard it under its reply). */
export interface PendingMemoryItem {
	id: string;
	tier: 'research' | 'profile';
	kind: string;
	text: string;
	at: number;
}

/** What "forget" removes: one research memory, one profile key (all values), one file, or ask for a file. */
export type ForgetTarget =
	| { kind: 'research'; workspaceId: string; docId: string }
	| { kind: 'profile'; workspaceId: string; key: string }
	| { kind: 'file'; path: string | null };

/** A one-line outcome shown above the panel (after export, import, forget…). */
export interface NoticeParams {
	level: 'info' | 'error';
	message: string;
}

/** Host → memory webview. */
export interface HostToMemoryPanel {
	/** The store is being opened / read (the first open can take seconds). */
	'memory/loading': { message: string };
	'memory/state': MemoryPanelState;
	'memory/notice': NoticeParams;
}

/** Memory webview → host. */
export interface MemoryPanelToHost {
	'memory/ready': NoParams;
	'memory/refresh': NoParams;
	'memory/forget': ForgetTarget;
	'memory/clearTier': { tier: MemoryTier };
	'memory/export': NoParams;
	'memory/import': NoParams;
	'memory/reviewStale': ReviewStaleParams;
	/** Open the conversation turn that wrote a memory (its message, reply and decision). */
	'memory/openTurn': { workspaceId: string; turnId: string };
}

const isNoParams: Guard<NoParams> = (x): x is NoParams => isRecord(x);
const isMemoryTier = oneOf(MEMORY_TIERS);
const isNullableNumber = nullable(isNumber);

const isTierSummary = object<TierSummary>({
	tier: isMemoryTier,
	items: isNumber,
	detail: isString,
	bytes: isNumber,
	lastWrite: isNullableNumber,
});
const isProfileItem = object<ProfileItem>({
	workspaceId: isString,
	key: isString,
	value: isString,
	kind: oneOf(['fact', 'preference', 'instruction'] as const),
	since: isNumber,
	history: isNumber,
});
const isMemoryItem = object<MemoryItem>({
	workspaceId: isString,
	docId: isString,
	kind: oneOf(['qa', 'decision', 'correction', 'note'] as const),
	content: isString,
	at: isNumber,
	superseded: isBoolean,
	sourceTurn: optional(nullable(isString)),
});
const isCorrectionItem = object<CorrectionItem>({
	workspaceId: isString,
	docId: isString,
	content: isString,
	at: isNumber,
	superseded: arrayOf(object<{ docId: string; content: string }>({ docId: isString, content: isString })),
});
const isDecisionItem = object<DecisionItem>({
	turnId: isString,
	at: isNumber,
	utterance: isString,
	trigger: isString,
	path: isString,
	tiers: arrayOf(isString),
	route: isString,
	source: oneOf(['session', 'stored'] as const),
});
const isIndexHealth = object<IndexHealthView>({
	state: oneOf(['idle', 'indexing', 'error'] as const),
	percent: isNullableNumber,
	files: isNumber,
	chunks: isNumber,
	skipped: recordOf(isNumber),
	lastRun: isNullableNumber,
	lastError: nullable(isString),
});
const isStoreInfo = object<StoreInfo>({ engine: isString, schemaVersion: isNumber, where: isString, source: isString });
const isThresholdView = object<ThresholdView>({
	name: isString,
	value: isNumber,
	default: isNumber,
	source: oneOf(['setting', 'default'] as const),
	rationale: isString,
});

/** Validates a whole panel state. */
export const isMemoryPanelState: Guard<MemoryPanelState> = object<MemoryPanelState>({
	generatedAt: isNumber,
	restricted: isBoolean,
	workspaceFolders: isNumber,
	store: nullable(isStoreInfo),
	storeError: nullable(isString),
	tiers: arrayOf(isTierSummary),
	profile: arrayOf(isProfileItem),
	memories: arrayOf(isMemoryItem),
	corrections: arrayOf(isCorrectionItem),
	decisions: arrayOf(isDecisionItem),
	indexedFiles: isNumber,
	indexedChunks: isNumber,
	index: nullable(isIndexHealth),
	thresholds: arrayOf(isThresholdView),
	pending: optional(
		arrayOf(
			object<PendingMemoryItem>({
				id: isString,
				tier: oneOf(['research', 'profile'] as const),
				kind: isString,
				text: isString,
				at: isNumber,
			}),
		),
	),
	demoted: optional(
		arrayOf(
			object<DemotedMemoryItem>({ workspaceId: isString, docId: isString, content: isString, idleDays: isNumber }),
		),
	),
	stale: optional(
		arrayOf(
			object<StaleMemoryItem>({
				workspaceId: isString,
				docId: isString,
				content: isString,
				cites: isString,
				checkedAt: nullable(isNumber),
			}),
		),
	),
});

const isForgetTarget: Guard<ForgetTarget> = discriminated<ForgetTarget>({
	research: object({ kind: oneOf(['research'] as const), workspaceId: isString, docId: isString }),
	profile: object({ kind: oneOf(['profile'] as const), workspaceId: isString, key: isString }),
	file: object({ kind: oneOf(['file'] as const), path: nullable(isString) }),
});

const HOST_TO_PANEL_GUARDS: MessageGuards<HostToMemoryPanel> = {
	'memory/loading': object<{ message: string }>({ message: isString }),
	'memory/state': isMemoryPanelState,
	'memory/notice': object<NoticeParams>({ level: oneOf(['info', 'error'] as const), message: isString }),
};

const PANEL_TO_HOST_GUARDS: MessageGuards<MemoryPanelToHost> = {
	'memory/ready': isNoParams,
	'memory/refresh': isNoParams,
	'memory/forget': isForgetTarget,
	'memory/clearTier': object<{ tier: MemoryTier }>({ tier: isMemoryTier }),
	'memory/export': isNoParams,
	'memory/import': isNoParams,
	'memory/openTurn': object<{ workspaceId: string; turnId: string }>({ workspaceId: isString, turnId: isString }),
	'memory/reviewStale': object<ReviewStaleParams>({
		workspaceId: isString,
		docId: isString,
		action: oneOf(['keep', 'update', 'forget', 'restore'] as const),
	}),
};

function messageGuard<M>(guards: MessageGuards<M>): Guard<MessageOf<M>> {
	const table: Record<string, Guard<unknown>> = guards;
	return (x): x is MessageOf<M> =>
		isRecord(x) &&
		typeof x.type === 'string' &&
		Object.prototype.hasOwnProperty.call(table, x.type) &&
		table[x.type](x.params);
}

/** True when `x` is a well-formed host → memory panel message. */
export const isHostToMemoryPanelMessage: Guard<MessageOf<HostToMemoryPanel>> = messageGuard(HOST_TO_PANEL_GUARDS);
/** True when `x` is a well-formed memory panel → host message. */
export const isMemoryPanelToHostMessage: Guard<MessageOf<MemoryPanelToHost>> = messageGuard(PANEL_TO_HOST_GUARDS);

/** Message names per direction (for tests and logs). */
export const HOST_TO_MEMORY_PANEL_TYPES = Object.keys(HOST_TO_PANEL_GUARDS) as (keyof HostToMemoryPanel)[];
export const MEMORY_PANEL_TO_HOST_TYPES = Object.keys(PANEL_TO_HOST_GUARDS) as (keyof MemoryPanelToHost)[];

/** Formats a byte count for display ("1.2 MB"). Pure, shared by host tests and the webview. */
export function formatBytes(n: number): string {
	if (n < 1024) return `${n} B`;
	const units = ['KB', 'MB', 'GB'];
	let v = n / 1024;
	let i = 0;
	while (v >= 1024 && i < units.length - 1) {
		v /= 1024;
		i++;
	}
	return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}
