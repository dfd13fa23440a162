import * as assert from 'node:assert/strict';
import { loadState, saveState, type WebviewState } from '../../webview/state';
import type { VsCodeApi } from '../../webview/vscodeApi';
import { sampleTrace } from './protocol.test';

/** The webview API double: a state slot and a post box. */
class FakeVsCodeApi implements VsCodeApi {
	constructor(public state: unknown = undefined) {}
	readonly posted: unknown[] = [];
	postMessage(message: unknown): void {
		this.posted.push(message);
	}
	getState(): unknown {
		return this.state;
	}
	setState(state: unknown): void {
		this.state = state;
	}
}

describe('webview state', () => {
	it('round-trips a valid state, traces included', () => {
		const api = new FakeVsCodeApi();
		const state: WebviewState = {
			entries: [
				{ kind: 'user', turnId: 't1', text: 'hello', at: 1 },
				{ kind: 'assistant', turnId: 't1', markdown: '**hi**', trace: sampleTrace(), at: 2 },
			],
			lastSent: 'hello',
			tracesOpen: true,
			draft: 'half a thought',
		};
		saveState(api, state);
		assert.deepEqual(loadState(api), state);
	});

	it('starts empty when nothing, or an older or corrupt shape, is stored', () => {
		const empty = { entries: [], lastSent: '', tracesOpen: false, draft: '' };
		for (const stored of [undefined, null, 'x', { entries: [] }, { entries: [{ kind: 'user' }], lastSent: '', tracesOpen: false, draft: '' }]) {
			assert.deepEqual(loadState(new FakeVsCodeApi(stored)), empty, JSON.stringify(stored));
		}
	});
});
