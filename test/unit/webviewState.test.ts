import * as assert from 'node:assert/strict';
import { loadState, mergeRestored, saveState, type PanelEntry, type WebviewState } from '../../webview/state';
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
		for (const stored of [
			undefined,
			null,
			'x',
			{ entries: [] },
			{ entries: [{ kind: 'user' }], lastSent: '', tracesOpen: false, draft: '' },
		]) {
			assert.deepEqual(loadState(new FakeVsCodeApi(stored)), empty, JSON.stringify(stored));
		}
	});

	it('restores a reply that was streaming when the page went away as interrupted, not streaming', () => {
		const streaming: PanelEntry = {
			kind: 'streaming',
			turnId: 't2',
			markdown: 'Half a',
			generator: 'llama3',
			progress: 'Generating…',
			at: 3,
			retryOf: 't1',
		};
		const api = new FakeVsCodeApi({
			entries: [{ kind: 'user', turnId: 't2', text: 'q', at: 1 }, streaming],
			lastSent: 'q',
			tracesOpen: false,
			draft: '',
		});
		const [, restored] = loadState(api).entries;
		assert.deepEqual(restored, { ...streaming, interrupted: true, progress: '' });
	});

	it('merges the host transcript with local replies still in flight', () => {
		const user = { kind: 'user', turnId: 't1', text: 'q', at: 1 } as const;
		const partial: PanelEntry = {
			kind: 'streaming',
			turnId: 't1',
			markdown: 'par',
			generator: 'g',
			progress: '',
			at: 2,
			interrupted: true,
		};
		const retry: PanelEntry = {
			kind: 'streaming',
			turnId: 't1-r',
			markdown: '',
			generator: 'g',
			progress: '',
			at: 3,
			retryOf: 't1',
		};
		const orphan: PanelEntry = {
			kind: 'streaming',
			turnId: 'gone',
			markdown: 'x',
			generator: 'g',
			progress: '',
			at: 4,
		};
		// Host holds the question but no reply yet: the partial reply and the retry stay; a stream of a turn the host does not know goes.
		assert.deepEqual(mergeRestored([user], [user, partial, retry, orphan]), [user, partial, retry]);
		// Host has answered: its reply wins, the local stream is dropped.
		const reply = { kind: 'assistant', turnId: 't1', markdown: 'done', trace: null, at: 5 } as const;
		assert.deepEqual(mergeRestored([user, reply], [user, partial]), [user, reply]);
	});
});
