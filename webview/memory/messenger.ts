/**
 * The memory panel's end of its typed protocol: posts through the VsCodeApi and accepts only
 * messages that pass `isHostToMemoryPanelMessage` (anything else is dropped and logged to the
 * webview console).
 */
import {
	isHostToMemoryPanelMessage,
	Messenger,
	type HostToMemoryPanel,
	type MemoryPanelToHost,
} from '../../src/core/memoryPanelProtocol';
import { windowTransport } from '../messenger';
import type { VsCodeApi } from '../vscodeApi';

/** This side's messenger: receives HostToMemoryPanel, sends MemoryPanelToHost. */
export type MemoryMessenger = Messenger<HostToMemoryPanel, MemoryPanelToHost>;

/** Creates the memory panel's messenger. */
export function createMemoryMessenger(api: VsCodeApi): MemoryMessenger {
	return new Messenger<HostToMemoryPanel, MemoryPanelToHost>(windowTransport(api), isHostToMemoryPanelMessage, (data) =>
		console.warn('Gated Memory: ignored a malformed message from the host', data),
	);
}
