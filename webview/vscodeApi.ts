/**
 * The one object VS Code gives a webview: `postMessage` to the host and a per-view state slot
 * (`getState`/`setState`) that survives the panel being hidden and shown.
 */
export interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare global {
	/** Injected by VS Code into every webview; callable once per page. */
	function acquireVsCodeApi(): VsCodeApi;
}

let api: VsCodeApi | undefined;

/** The page's VsCodeApi (acquired on first use; acquiring twice throws). */
export function vscodeApi(): VsCodeApi {
	api ??= acquireVsCodeApi();
	return api;
}
