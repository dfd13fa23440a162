/**
 * The webview end of the typed protocol: posts through the VsCodeApi and accepts only messages
 * that pass `isHostToWebviewMessage` (anything else — including messages from other frames — is
 * dropped and reported to the console, which shows in the webview developer tools).
 */
import {
	isHostToWebviewMessage,
	Messenger,
	type HostToWebview,
	type MessageTransport,
	type WebviewToHost,
} from '../src/core/protocol';
import type { VsCodeApi } from './vscodeApi';

/** The messenger type of this side: receives HostToWebview, sends WebviewToHost. */
export type WebviewMessenger = Messenger<HostToWebview, WebviewToHost>;

/** A transport over `window` message events and `VsCodeApi.postMessage`. */
export function windowTransport(api: VsCodeApi, target: Window = window): MessageTransport {
	return {
		post: (message) => api.postMessage(message),
		listen: (listener) => {
			const onMessage = (event: MessageEvent<unknown>) => listener(event.data);
			target.addEventListener('message', onMessage);
			return () => target.removeEventListener('message', onMessage);
		},
	};
}

/** Creates the webview's messenger. */
export function createWebviewMessenger(api: VsCodeApi): WebviewMessenger {
	return new Messenger<HostToWebview, WebviewToHost>(windowTransport(api), isHostToWebviewMessage, (data) =>
		console.warn('Gated Memory: ignored a malformed message from the host', data),
	);
}
