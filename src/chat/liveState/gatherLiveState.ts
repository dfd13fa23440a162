/**
 * Reads the live-state sources a turn's plan names, all at once, each under its own time budget
 * (`live_source_budget_ms`) and the turn's AbortSignal, capped in items and characters, with
 * secrets redacted exactly as the indexer redacts files (src/indexing/secretScan.ts; files the
 * indexer never reads, such as `.env`, are not quoted at all). One trace note per source says
 * what was read, how much and how long — or why not. Never throws.
 */
import type { LiveSource, LiveSourcePlan } from '../../core/liveState/liveSources';
import type { Thresholds } from '../../core/thresholds';
import type { TraceStep } from '../../core/trace';
import { isSecretFile } from '../../indexing/secretFiles';
import { redactSecrets } from '../../indexing/secretScan';
import { errorMessage } from '../logger';
import type { LiveItem, LiveRead, LiveStateHost } from './liveStatePorts';

/** What a turn's live state gave: items in source order, one trace note per source, the wall time. */
export interface LiveGathered {
	items: LiveItem[];
	steps: TraceStep[];
	/** Sources that answered with at least one item. */
	read: LiveSource[];
	ms: number;
}

const CUT_NOTE = '\n… [cut: live_item_max_chars]';

type Outcome = { source: LiveSource; ms: number } & (
	| { kind: 'read'; value: LiveRead }
	| { kind: 'timeout' }
	| { kind: 'cancelled' }
	| { kind: 'error'; message: string }
	| { kind: 'missing' }
);

/** Gathers the plan's sources from `host`; `restricted` reads nothing. */
export async function gatherLiveState(
	host: LiveStateHost,
	plan: LiveSourcePlan,
	utterance: string,
	thresholds: Thresholds,
	signal: AbortSignal,
	restricted: boolean,
): Promise<LiveGathered> {
	const t0 = performance.now();
	const out: LiveGathered = { items: [], steps: [], read: [], ms: 0 };
	if (plan.sources.length === 0) return out;
	if (restricted) {
		out.steps.push(note('info', `live state not read: Restricted Mode (${plan.sources.join(', ')} skipped)`));
		return out;
	}
	if (host.unavailable) {
		out.steps.push(note('info', `${host.unavailable}; ${plan.sources.join(', ')} not read`));
		return out;
	}
	const budget = thresholds.live_source_budget_ms;
	const request = {
		utterance,
		plan,
		maxItems: thresholds.live_source_max_items,
		maxChars: thresholds.live_source_max_chars,
		thresholds,
	};
	const outcomes = await Promise.all(plan.sources.map((source) => readOne(host, source, request, budget, signal)));
	for (const o of outcomes) {
		if (o.kind !== 'read') {
			out.steps.push(note(o.kind === 'error' ? 'warn' : 'info', `${o.source}: ${whyNot(o, budget)}`));
			continue;
		}
		if (o.value.status === 'unavailable') {
			out.steps.push(note('info', `${o.source}: not read — ${o.value.reason} (${o.ms} ms)`));
			continue;
		}
		const capped = capItems(o.value.items, thresholds);
		out.items.push(...capped.items);
		if (capped.items.length) out.read.push(o.source);
		const total = Math.max(o.value.total ?? o.value.items.length, o.value.items.length);
		const parts = [
			`${o.source}: ${o.value.read}`,
			`${capped.items.length}${total > capped.items.length ? ` of ${total}` : ''} item${capped.items.length === 1 ? '' : 's'}, ${capped.chars.toLocaleString('en-US')} chars, ${o.ms} ms`,
		];
		if (o.value.via) parts.push(`via ${o.value.via}`);
		if (capped.redacted) parts.push(`${capped.redacted} secret${capped.redacted === 1 ? '' : 's'} redacted`);
		if (capped.secretFiles)
			parts.push(`${capped.secretFiles} secret file${capped.secretFiles === 1 ? '' : 's'} not quoted`);
		if (capped.cut) parts.push(`${capped.cut} cut to fit`);
		out.steps.push(note('info', parts.join(' · ')));
	}
	out.ms = Math.round(performance.now() - t0);
	out.steps.push(
		note(
			'info',
			`live state gathered in ${out.ms} ms: ${out.items.length} item${out.items.length === 1 ? '' : 's'} from ${out.read.length ? out.read.join(', ') : 'no source'}`,
		),
	);
	return out;
}

/** One source under its budget; a timeout aborts the source's own signal so it can stop work. */
async function readOne(
	host: LiveStateHost,
	source: LiveSource,
	request: Parameters<NonNullable<LiveStateHost['sources'][LiveSource]>['read']>[0],
	budget: number,
	turn: AbortSignal,
): Promise<Outcome> {
	const t0 = performance.now();
	const ms = () => Math.round(performance.now() - t0);
	const impl = host.sources[source];
	if (!impl) return { source, ms: 0, kind: 'missing' };
	if (turn.aborted) return { source, ms: 0, kind: 'cancelled' };
	const own = new AbortController();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const onTurnAbort = () => own.abort();
	turn.addEventListener('abort', onTurnAbort, { once: true });
	const limit = new Promise<'timeout' | 'cancelled'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), budget);
		own.signal.addEventListener('abort', () => resolve(turn.aborted ? 'cancelled' : 'timeout'), { once: true });
	});
	try {
		const raced = await Promise.race([impl.read(request, own.signal), limit]);
		if (raced === 'timeout') {
			own.abort();
			return { source, ms: ms(), kind: 'timeout' };
		}
		if (raced === 'cancelled') return { source, ms: ms(), kind: 'cancelled' };
		if (turn.aborted) return { source, ms: ms(), kind: 'cancelled' };
		return { source, ms: ms(), kind: 'read', value: raced };
	} catch (e) {
		return turn.aborted
			? { source, ms: ms(), kind: 'cancelled' }
			: { source, ms: ms(), kind: 'error', message: errorMessage(e) };
	} finally {
		clearTimeout(timer);
		turn.removeEventListener('abort', onTurnAbort);
	}
}

function whyNot(o: Outcome, budget: number): string {
	switch (o.kind) {
		case 'timeout':
			return `not read — timed out after ${budget} ms (live_source_budget_ms)`;
		case 'cancelled':
			return 'not read — the turn was stopped';
		case 'error':
			return `not read — failed: ${o.message}`;
		case 'missing':
			return 'not read — this host has no such source';
		default:
			return '';
	}
}

/** Redacts, cuts long items, then keeps items in order while the source's character cap allows. */
function capItems(
	items: readonly LiveItem[],
	t: Thresholds,
): { items: LiveItem[]; chars: number; redacted: number; secretFiles: number; cut: number } {
	const kept: LiveItem[] = [];
	let chars = 0;
	let redacted = 0;
	let secretFiles = 0;
	let cut = 0;
	for (const item of items) {
		if (kept.length >= t.live_source_max_items) break;
		if (item.path !== null && isSecretFile(item.path)) {
			secretFiles++;
			continue;
		}
		const r = redactSecrets(boundForRedaction(item.text, t.live_item_max_chars), item.path ?? '');
		redacted += Object.values(r.found).reduce((a, b) => a + b, 0);
		let text = r.text;
		if (text.length > t.live_item_max_chars) {
			text = text.slice(0, Math.max(0, t.live_item_max_chars - CUT_NOTE.length)) + CUT_NOTE;
			cut++;
		}
		if (chars + text.length > t.live_source_max_chars) {
			const room = t.live_source_max_chars - chars;
			if (kept.length > 0 || room < 100) break;
			// The first item is cut rather than lost: some live state beats none.
			text = text.slice(0, room - CUT_NOTE.length) + CUT_NOTE;
			cut++;
		}
		kept.push({ ...item, citation: redactSecrets(item.citation.replace(/[\r\n]+/g, ' '), '').text, text });
		chars += text.length;
	}
	return { items: kept, chars, redacted, secretFiles, cut };
}

/** Longest line handed to the secret scanner as is. */
const LONG_LINE_CHARS = 1000;

/**
 * Bounds what the secret scanner reads, because its cost grows with the square of an unbroken
 * run of word characters (a 3,900-character run costs ~130 ms on this machine; a minified line
 * in a diff would block the extension host for seconds). Text past twice the item cap is dropped
 * at a line break (it would be cut after redaction anyway); a line over LONG_LINE_CHARS is cut at
 * a character that cannot be inside a token, or left out whole when it has none — never cut
 * inside a token, so no partial secret survives the cut.
 */
export function boundForRedaction(text: string, itemMaxChars: number): string {
	let t = text;
	const limit = itemMaxChars * 2;
	if (t.length > limit) {
		const nl = t.lastIndexOf('\n', limit);
		t = nl > 0 ? `${t.slice(0, nl)}\n… [cut before redaction]` : t;
	}
	if (t.length <= LONG_LINE_CHARS && !t.includes('\n')) return t;
	return t
		.split('\n')
		.map((line) => {
			if (line.length <= LONG_LINE_CHARS) return line;
			const head = line.slice(0, LONG_LINE_CHARS);
			let cut = -1;
			for (let i = head.length - 1; i >= LONG_LINE_CHARS / 2; i--) {
				if (!/[A-Za-z0-9_.+/=-]/.test(head[i])) {
					cut = i;
					break;
				}
			}
			return cut > 0
				? `${head.slice(0, cut)} … [line of ${line.length.toLocaleString('en-US')} characters cut]`
				: `[a line of ${line.length.toLocaleString('en-US')} characters without a break, left out]`;
		})
		.join('\n');
}

function note(level: 'info' | 'warn', message: string): TraceStep {
	return { kind: 'note', stage: 'live', level, message };
}
