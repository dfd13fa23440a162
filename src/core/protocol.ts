/**
 * The typed host⇄webview protocol: one map per direction, message names `area/verb`, a runtime
 * guard for every message (used on receipt on both sides), and a small transport-agnostic
 * messenger. Pure: no `vscode`, no DOM, no Node; the webview bundle imports only this module
 * (and, through it, protocolGuards.ts and the core type modules).
 */
import type { DecisionTrace, TraceStep } from './trace';
import {
	arrayOf,
	isBoolean,
	isDecisionTrace,
	isNumber,
	isTraceStep,
	isRecord,
	isString,
	nullable,
	object,
	oneOf,
	optional,
	type Guard,
} from './protocolGuards';
import {
	isMemoryApproveParams,
	isMemoryDiscardParams,
	isMemoryProposalsParams,
	type MemoryApproveParams,
	type MemoryProposalsParams,
} from './proposalProtocol';

export * from './protocolGuards';
export * from './proposalProtocol';
/** The trace types the webview renders, re-exported so it imports this module only. */
export type { DecisionTrace, JsonValue, TraceDecisionSummary, TraceHit, TraceStep } from './trace';
export type { Tier } from './types';

/** A message with no parameters. */
export type NoParams = Record<string, never>;

/** The user sent a message from the panel. `turnId` is minted by the webview to pair the reply. */
export interface ChatSendParams {
	turnId: string;
	text: string;
}

/** How a reply treated retrieval: as decided, or forced on / off by "retry with retrieval …". */
export type RetrievalOverride = 'auto' | 'force' | 'skip';
export const RETRIEVAL_OVERRIDES = ['auto', 'force', 'skip'] as const;

/** A `[n]` marker of a reply and what it points at; `uri` (a file URI) opens at the lines. */
export interface Citation {
	n: number;
	/** e.g. "src/config.ts:10-24 (parseConfig)" or "research memory, 2026-11-30". */
	label: string;
	/** A `file:` URI inside a workspace folder, or null for memories (not openable). */
	uri: string | null;
	startLine: number | null;
	endLine: number | null;
}

/**
 * An action a reply proposes (issue 14: "run the tests", "undo that change", "commit this"): shown
 * as a control the user clicks; the host runs nothing by itself. The webview sends back only the
 * ids (`action/run`); the host looks the action up in its own record of the reply, never trusting
 * a command from the page.
 */
export interface ProposedAction {
	id: string;
	/** `memory`: a chat "forget that …" reply's Undo, or one of several matching memories to forget. */
	kind: 'terminal' | 'git' | 'edit' | 'memory';
	/** The control's text: "Run in Terminal", "Revert", "Stage", "Commit…", "Apply Edit". */
	label: string;
	/** The exact command, git operation or edit, in words ("npm run test:unit", "revert src/config.ts"). */
	detail: string;
	/** A modal confirmation that names what it touches, for destructive or production-looking actions. */
	confirm: string | null;
}

/** What became of a proposed action after the user clicked it (or declined the confirmation). */
export type ActionStatus = 'ran' | 'declined' | 'failed' | 'unavailable';
export const ACTION_STATUSES = ['ran', 'declined', 'failed', 'unavailable'] as const;

/** How a reply ended: complete, stopped by the user midway, or (evidence-only) without a model. */
export type ReplyStatus = 'done' | 'stopped';

/** The assistant's reply to one turn: Markdown (rendered sanitised) plus the decision trace. */
export interface ChatReplyParams {
	turnId: string;
	markdown: string;
	/** Null when the turn produced no decision (the panel then shows no trace). */
	trace: DecisionTrace | null;
	/** What each `[n]` in `markdown` refers to. */
	citations?: Citation[];
	status?: ReplyStatus;
	/** The generator's label ("Evidence only", "llama3 via OpenAI-compatible"…). */
	generator?: string;
	/** Set when this reply retries an earlier turn (its turnId), with the retrieval override used. */
	retryOf?: string;
	retrieval?: RetrievalOverride;
	/** Actions the reply proposes; each runs only when the user clicks its control. */
	actions?: ProposedAction[];
}

/** A reply starts streaming: the panel shows an assistant entry with a Stop button. */
export interface ChatStartParams {
	turnId: string;
	generator: string;
	retryOf?: string;
}

/** A piece of streamed reply text, appended in order to the entry of `turnId`. */
export interface ChatDeltaParams {
	turnId: string;
	text: string;
}

/** What the host is doing for a turn before text arrives ("Searching workspace…"). */
export interface ChatProgressParams {
	turnId: string;
	message: string;
}

/** What persisting a shown reply wrote (or why not): steps appended to that reply's trace. */
export interface ChatPersistedParams {
	turnId: string;
	steps: TraceStep[];
}

/** A failure to show in the panel instead of a reply; the conversation goes on. */
export interface ChatErrorParams {
	turnId: string | null;
	message: string;
	/** True when "Retry" may succeed (offline, rate limited…); the user's message is kept either way. */
	retryable?: boolean;
}

/** One line of the transcript, as the host keeps it and the webview persists it. */
export type TranscriptEntry =
	| { kind: 'user'; turnId: string; text: string; at: number }
	| {
			kind: 'assistant';
			turnId: string;
			markdown: string;
			trace: DecisionTrace | null;
			at: number;
			citations?: Citation[];
			status?: ReplyStatus;
			generator?: string;
			retryOf?: string;
			retrieval?: RetrievalOverride;
			actions?: ProposedAction[];
	  }
	| { kind: 'error'; turnId: string | null; message: string; at: number; retryable?: boolean };

/** The generator in use, for the panel header. */
export interface GeneratorInfoParams {
	kind: 'lm' | 'openai' | 'evidence';
	label: string;
}

/** One past conversation in the history list. */
export interface ConversationSummary {
	id: string;
	title: string;
	/** Last activity, ms since epoch. */
	at: number;
	turns: number;
}

/** The conversation history list and which one is open. */
export interface HistoryListParams {
	conversations: ConversationSummary[];
	activeId: string;
}

/** The host's view of the conversation, sent when the panel (re)loads. */
export interface StateRestoreParams {
	entries: TranscriptEntry[];
	/** Restricted Mode: chat over the conversation only (the panel says so). */
	restricted: boolean;
	generator?: GeneratorInfoParams;
	history?: HistoryListParams;
}

/** Messages the extension host sends to the webview, by name → parameters. */
export interface HostToWebview {
	'chat/reply': ChatReplyParams;
	'chat/error': ChatErrorParams;
	'chat/clear': NoParams;
	'chat/focus': NoParams;
	'state/restore': StateRestoreParams;
	'trace/toggle': { open: boolean };
	'chat/start': ChatStartParams;
	'chat/delta': ChatDeltaParams;
	'chat/progress': ChatProgressParams;
	'generator/info': GeneratorInfoParams;
	'history/list': HistoryListParams;
	/** A proposed action ran, was declined at its confirmation, failed or could not run. */
	'action/status': ActionStatusParams;
	/** Confirm-mode memory proposals (src/core/proposalProtocol.ts). */
	'memory/proposals': MemoryProposalsParams;
	'chat/persisted': ChatPersistedParams;
}

export interface ActionStatusParams {
	turnId: string;
	actionId: string;
	status: ActionStatus;
	message: string;
}

/** Messages the webview sends to the extension host, by name → parameters. */
export interface WebviewToHost {
	/** The panel's script has loaded and listens; the host answers with `state/restore`. */
	'webview/ready': NoParams;
	'chat/send': ChatSendParams;
	/** Stop the streaming reply of `turnId` (cancels the request end to end). */
	'chat/stop': { turnId: string };
	/** Answer the user message of `turnId` again as a new reply `newTurnId` (minted by the webview). */
	'chat/retry': { turnId: string; newTurnId: string; retrieval: RetrievalOverride };
	/** Code-block actions: copy to the clipboard, insert at the active editor's cursor, open as a new file. */
	'code/copy': { code: string };
	'code/insert': { code: string };
	'code/newFile': { code: string; language: string | null };
	/** Open a cited file at its lines (the host checks the URI is inside a workspace folder). */
	'citation/open': { uri: string; startLine: number | null; endLine: number | null };
	/** Switch to a past conversation, or start a new one. */
	'history/open': { id: string };
	'history/new': NoParams;
	/** The user clicked a proposed action's control (ids only: the host keeps the action itself). */
	'action/run': { turnId: string; actionId: string };
	'memory/approve': MemoryApproveParams;
	'memory/discard': { id: string };
}

/** The envelope of any message of a direction map `M`: `{ type, params }`, discriminated on `type`. */
export type MessageOf<M> = { [K in keyof M & string]: { type: K; params: M[K] } }[keyof M & string];
export type HostToWebviewMessage = MessageOf<HostToWebview>;
export type WebviewToHostMessage = MessageOf<WebviewToHost>;

/** One guard per message name of a direction map; a missing name is a compile error. */
export type MessageGuards<M> = { [K in keyof M & string]: Guard<M[K]> };

const isNoParams: Guard<NoParams> = (x): x is NoParams => isRecord(x);

const isRetrievalOverride = oneOf(RETRIEVAL_OVERRIDES);
const isReplyStatus = oneOf(['done', 'stopped'] as const);
const isNullableNumber = nullable(isNumber);

export const isCitation: Guard<Citation> = object<Citation>({
	n: isNumber,
	label: isString,
	uri: nullable(isString),
	startLine: isNullableNumber,
	endLine: isNullableNumber,
});

export const isProposedAction: Guard<ProposedAction> = object<ProposedAction>({
	id: isString,
	kind: oneOf(['terminal', 'git', 'edit', 'memory'] as const),
	label: isString,
	detail: isString,
	confirm: nullable(isString),
});

const isGeneratorInfo = object<GeneratorInfoParams>({
	kind: oneOf(['lm', 'openai', 'evidence'] as const),
	label: isString,
});

const isHistoryList = object<HistoryListParams>({
	conversations: arrayOf(object<ConversationSummary>({ id: isString, title: isString, at: isNumber, turns: isNumber })),
	activeId: isString,
});

/** Validates a transcript entry field by field. */
export const isTranscriptEntry: Guard<TranscriptEntry> = (x): x is TranscriptEntry => {
	if (!isRecord(x)) return false;
	switch (x.kind) {
		case 'user':
			return isString(x.turnId) && isString(x.text) && isNumber(x.at);
		case 'assistant':
			return (
				isString(x.turnId) &&
				isString(x.markdown) &&
				nullable(isDecisionTrace)(x.trace) &&
				isNumber(x.at) &&
				optional(arrayOf(isCitation))(x.citations) &&
				optional(isReplyStatus)(x.status) &&
				optional(isString)(x.generator) &&
				optional(isString)(x.retryOf) &&
				optional(isRetrievalOverride)(x.retrieval) &&
				optional(arrayOf(isProposedAction))(x.actions)
			);
		case 'error':
			return nullable(isString)(x.turnId) && isString(x.message) && isNumber(x.at) && optional(isBoolean)(x.retryable);
		default:
			return false;
	}
};

const HOST_TO_WEBVIEW_GUARDS: MessageGuards<HostToWebview> = {
	'chat/reply': object<ChatReplyParams>({
		turnId: isString,
		markdown: isString,
		trace: nullable(isDecisionTrace),
		citations: optional(arrayOf(isCitation)),
		status: optional(isReplyStatus),
		generator: optional(isString),
		retryOf: optional(isString),
		retrieval: optional(isRetrievalOverride),
		actions: optional(arrayOf(isProposedAction)),
	}),
	'chat/error': object<ChatErrorParams>({
		turnId: nullable(isString),
		message: isString,
		retryable: optional(isBoolean),
	}),
	'chat/clear': isNoParams,
	'chat/focus': isNoParams,
	'state/restore': object<StateRestoreParams>({
		entries: arrayOf(isTranscriptEntry),
		restricted: isBoolean,
		generator: optional(isGeneratorInfo),
		history: optional(isHistoryList),
	}),
	'trace/toggle': object<{ open: boolean }>({ open: isBoolean }),
	'chat/start': object<ChatStartParams>({ turnId: isString, generator: isString, retryOf: optional(isString) }),
	'chat/delta': object<ChatDeltaParams>({ turnId: isString, text: isString }),
	'chat/progress': object<ChatProgressParams>({ turnId: isString, message: isString }),
	'generator/info': isGeneratorInfo,
	'history/list': isHistoryList,
	'action/status': object<ActionStatusParams>({
		turnId: isString,
		actionId: isString,
		status: oneOf(ACTION_STATUSES),
		message: isString,
	}),
	'chat/persisted': object<ChatPersistedParams>({ turnId: isString, steps: arrayOf(isTraceStep) }),
	'memory/proposals': isMemoryProposalsParams,
};

const WEBVIEW_TO_HOST_GUARDS: MessageGuards<WebviewToHost> = {
	'webview/ready': isNoParams,
	'chat/send': object<ChatSendParams>({ turnId: isString, text: isString }),
	'chat/stop': object<{ turnId: string }>({ turnId: isString }),
	'chat/retry': object<{ turnId: string; newTurnId: string; retrieval: RetrievalOverride }>({
		turnId: isString,
		newTurnId: isString,
		retrieval: isRetrievalOverride,
	}),
	'code/copy': object<{ code: string }>({ code: isString }),
	'code/insert': object<{ code: string }>({ code: isString }),
	'code/newFile': object<{ code: string; language: string | null }>({ code: isString, language: nullable(isString) }),
	'citation/open': object<{ uri: string; startLine: number | null; endLine: number | null }>({
		uri: isString,
		startLine: isNullableNumber,
		endLine: isNullableNumber,
	}),
	'history/open': object<{ id: string }>({ id: isString }),
	'history/new': isNoParams,
	'action/run': object<{ turnId: string; actionId: string }>({ turnId: isString, actionId: isString }),
	'memory/approve': isMemoryApproveParams,
	'memory/discard': isMemoryDiscardParams,
};

function messageGuard<M>(guards: MessageGuards<M>): Guard<MessageOf<M>> {
	const table: Record<string, Guard<unknown>> = guards;
	return (x): x is MessageOf<M> => {
		if (!isRecord(x) || typeof x.type !== 'string') return false;
		if (!Object.prototype.hasOwnProperty.call(table, x.type)) return false;
		return table[x.type](x.params);
	};
}

/** True when `x` is a well-formed host → webview message (known name, every field valid). */
export const isHostToWebviewMessage: Guard<HostToWebviewMessage> = messageGuard(HOST_TO_WEBVIEW_GUARDS);

/** True when `x` is a well-formed webview → host message (known name, every field valid). */
export const isWebviewToHostMessage: Guard<WebviewToHostMessage> = messageGuard(WEBVIEW_TO_HOST_GUARDS);

/** Message names of each direction, derived from the guard tables (for tests and logs). */
export const HOST_TO_WEBVIEW_TYPES = Object.keys(HOST_TO_WEBVIEW_GUARDS) as (keyof HostToWebview)[];
export const WEBVIEW_TO_HOST_TYPES = Object.keys(WEBVIEW_TO_HOST_GUARDS) as (keyof WebviewToHost)[];

/** The two ends a messenger needs: post raw data out, and be told about raw data coming in. */
export interface MessageTransport {
	post(message: unknown): void;
	/** Registers the listener; returns a function that unregisters it. */
	listen(listener: (data: unknown) => void): () => void;
}

/** Handler table for incoming messages; a name without a handler is ignored. */
export type MessageHandlers<In> = { [K in keyof In & string]?: (params: In[K]) => void };

/**
 * Typed messenger over a transport: `send` is checked against the outgoing map, every incoming
 * datum passes the incoming guard before any handler sees it, and malformed data goes to
 * `onInvalid` (to log), never to a handler.
 */
export class Messenger<In, Out> {
	private readonly handlers: MessageHandlers<In> = {};
	private readonly unlisten: () => void;

	constructor(
		private readonly transport: MessageTransport,
		private readonly isIncoming: Guard<MessageOf<In>>,
		private readonly onInvalid: (data: unknown) => void,
	) {
		this.unlisten = transport.listen((data) => this.receive(data));
	}

	/** Sends one message of the outgoing map. */
	send<K extends keyof Out & string>(type: K, params: Out[K]): void {
		this.transport.post({ type, params });
	}

	/** Sets the handler for one incoming message name (replacing any earlier one). */
	on<K extends keyof In & string>(type: K, handler: (params: In[K]) => void): void {
		this.handlers[type] = handler;
	}

	/** Stops listening to the transport. */
	dispose(): void {
		this.unlisten();
	}

	private receive(data: unknown): void {
		if (!this.isIncoming(data)) {
			this.onInvalid(data);
			return;
		}
		this.dispatch(data.type, data.params);
	}

	private dispatch<K extends keyof In & string>(type: K, params: In[K]): void {
		this.handlers[type]?.(params);
	}
}
