/**
 * The typed host⇄webview protocol: one map per direction, message names `area/verb`, a runtime
 * guard for every message (used on receipt on both sides), and a small transport-agnostic
 * messenger. Pure: no `vscode`, no DOM, no Node; the webview bundle imports only this module
 * (and, through it, protocolGuards.ts and the core type modules).
 */
import type { DecisionTrace } from './trace';
import {
	arrayOf,
	isBoolean,
	isDecisionTrace,
	isNumber,
	isRecord,
	isString,
	nullable,
	object,
	type Guard,
} from './protocolGuards';

export * from './protocolGuards';
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

/** The assistant's reply to one turn: Markdown (rendered sanitised) plus the decision trace. */
export interface ChatReplyParams {
	turnId: string;
	markdown: string;
	/** Null when the turn produced no decision (the panel then shows no trace). */
	trace: DecisionTrace | null;
}

/** A failure to show in the panel instead of a reply; the conversation goes on. */
export interface ChatErrorParams {
	turnId: string | null;
	message: string;
}

/** One line of the transcript, as the host keeps it and the webview persists it. */
export type TranscriptEntry =
	| { kind: 'user'; turnId: string; text: string; at: number }
	| { kind: 'assistant'; turnId: string; markdown: string; trace: DecisionTrace | null; at: number }
	| { kind: 'error'; turnId: string | null; message: string; at: number };

/** The host's view of the conversation, sent when the panel (re)loads. */
export interface StateRestoreParams {
	entries: TranscriptEntry[];
	/** Restricted Mode: chat over the conversation only (the panel says so). */
	restricted: boolean;
}

/** Messages the extension host sends to the webview, by name → parameters. */
export interface HostToWebview {
	'chat/reply': ChatReplyParams;
	'chat/error': ChatErrorParams;
	'chat/clear': NoParams;
	'chat/focus': NoParams;
	'state/restore': StateRestoreParams;
	'trace/toggle': { open: boolean };
}

/** Messages the webview sends to the extension host, by name → parameters. */
export interface WebviewToHost {
	/** The panel's script has loaded and listens; the host answers with `state/restore`. */
	'webview/ready': NoParams;
	'chat/send': ChatSendParams;
}

/** The envelope of any message of a direction map `M`: `{ type, params }`, discriminated on `type`. */
export type MessageOf<M> = { [K in keyof M & string]: { type: K; params: M[K] } }[keyof M & string];
export type HostToWebviewMessage = MessageOf<HostToWebview>;
export type WebviewToHostMessage = MessageOf<WebviewToHost>;

/** One guard per message name of a direction map; a missing name is a compile error. */
export type MessageGuards<M> = { [K in keyof M & string]: Guard<M[K]> };

const isNoParams: Guard<NoParams> = (x): x is NoParams => isRecord(x);

/** Validates a transcript entry field by field. */
export const isTranscriptEntry: Guard<TranscriptEntry> = (x): x is TranscriptEntry => {
	if (!isRecord(x)) return false;
	switch (x.kind) {
		case 'user':
			return isString(x.turnId) && isString(x.text) && isNumber(x.at);
		case 'assistant':
			return isString(x.turnId) && isString(x.markdown) && nullable(isDecisionTrace)(x.trace) && isNumber(x.at);
		case 'error':
			return nullable(isString)(x.turnId) && isString(x.message) && isNumber(x.at);
		default:
			return false;
	}
};

const HOST_TO_WEBVIEW_GUARDS: MessageGuards<HostToWebview> = {
	'chat/reply': object<ChatReplyParams>({ turnId: isString, markdown: isString, trace: nullable(isDecisionTrace) }),
	'chat/error': object<ChatErrorParams>({ turnId: nullable(isString), message: isString }),
	'chat/clear': isNoParams,
	'chat/focus': isNoParams,
	'state/restore': object<StateRestoreParams>({ entries: arrayOf(isTranscriptEntry), restricted: isBoolean }),
	'trace/toggle': object<{ open: boolean }>({ open: isBoolean }),
};

const WEBVIEW_TO_HOST_GUARDS: MessageGuards<WebviewToHost> = {
	'webview/ready': isNoParams,
	'chat/send': object<ChatSendParams>({ turnId: isString, text: isString }),
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
