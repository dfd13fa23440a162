/**
 * Benchmark of decideTurn (not a test): every turn of ../shared/eval/dev/followup_cast2019.jsonl
 * (location from GMEM_SHARED, default ../shared relative to the working directory) plus the coding
 * turns of test/fixtures/gate_*.jsonl; a warm-up, then many timed passes. Prints turns/second,
 * p50 / p90 / p99 / max microseconds per decision, and the same percentiles over each turn's
 * fastest pass (its cost without preemption and GC pauses), with the machine's load average.
 *   npm run build && npm run bench:gate [-- --iterations N] [--slowest N]
 * --slowest N also lists the N turns with the slowest fastest-pass (what the p99 is made of).
 * The follow-up scorer memoises earlier turns' stems by text (256 texts), and the refusal context
 * each earlier message's cues (256 texts), so a history turn read by an earlier decision of its
 * conversation hits them, as in the product; --cold empties both before every decision (outside the
 * timed span) to show the cost without them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { decideTurn } from '../src/core/decide';
import { clearStemMemo } from '../src/core/followup/text';
import { clearRefusalMemo } from '../src/core/gate/refusal/history';
import { DEFAULT_THRESHOLDS } from '../src/core/thresholds';
import type { TurnInput } from '../src/core/types';
import { parseTurnLine } from '../src/cli/commands/gateCommand';

function readTurns(file: string): TurnInput[] {
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((l) => l.trim() !== '')
		.map((l) => parseTurnLine(JSON.parse(l)));
}

function loadTurns(cwd: string, env: NodeJS.ProcessEnv): { turns: TurnInput[]; sources: string[]; origin: string[] } {
	const shared = resolve(cwd, env.GMEM_SHARED ?? '../shared');
	const cast = join(shared, 'eval/dev/followup_cast2019.jsonl');
	const sources: string[] = [];
	const turns: TurnInput[] = [];
	const origin: string[] = [];
	const tag = (name: string, n: number) => {
		while (origin.length < turns.length) origin.push(name);
		void n;
	};
	if (existsSync(cast)) {
		const t = readTurns(cast);
		turns.push(...t);
		tag('CAsT 2019', t.length);
		sources.push(`${cast} (${t.length} turns)`);
	} else {
		process.stderr.write(`benchGate: ${cast} not found (set GMEM_SHARED); benchmarking fixtures only\n`);
	}
	const fixtures = resolve(cwd, 'test/fixtures');
	for (const name of readdirSync(fixtures)
		.filter((n) => /^gate_.*\.jsonl$/.test(n))
		.sort()) {
		const t = readTurns(join(fixtures, name));
		turns.push(...t);
		tag('unit fixtures', t.length);
		sources.push(`test/fixtures/${name} (${t.length} turns)`);
	}
	// The gate corpus: coding conversations with the assistant's replies in the window.
	const corpus = resolve(cwd, 'test/fixtures/eval/gate');
	for (const name of ['train.jsonl', 'dev.jsonl', 'test.jsonl']) {
		const file = join(corpus, name);
		if (!existsSync(file)) continue;
		const t = conversationTurns(file);
		turns.push(...t);
		tag('coding corpus', t.length);
		sources.push(`test/fixtures/eval/gate/${name} (${t.length} turns)`);
	}
	return { turns, sources, origin };
}

/** Every user turn of a message-per-line conversations file, with its window. */
function conversationTurns(file: string): TurnInput[] {
	const histories = new Map<string, TurnInput['history']>();
	const out: TurnInput[] = [];
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (!line.trim()) continue;
		const o = JSON.parse(line) as { conversation_id: string; role: 'user' | 'assistant'; content: string };
		const h = histories.get(o.conversation_id) ?? [];
		histories.set(o.conversation_id, h);
		if (o.role === 'user') out.push({ history: h.slice(), utterance: o.content });
		h.push({ role: o.role, content: o.content });
	}
	return out;
}

function percentile(sorted: Float64Array, p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function main(): void {
	const argIndex = process.argv.indexOf('--iterations');
	const iterations = argIndex > 0 ? Number(process.argv[argIndex + 1]) : 40;
	const { turns, sources, origin } = loadTurns(process.cwd(), process.env);
	if (turns.length === 0) throw new Error('no turns to benchmark');
	const options = { thresholds: DEFAULT_THRESHOLDS };

	// Warm-up: let V8 optimise the regexes and the decision path before timing.
	for (let i = 0; i < 5; i++) for (const t of turns) decideTurn(t, options);

	const samples = new Float64Array(turns.length * iterations);
	const bySource = new Map<string, number[]>();
	// Per turn, the fastest of its passes: the decision's own cost without preemption or GC pauses,
	// which on a shared machine dominate the plain p99.
	const best = new Float64Array(turns.length).fill(Infinity);
	const slowestAt = process.argv.indexOf('--slowest');
	const slowest = slowestAt > 0 ? Number(process.argv[slowestAt + 1]) : 0;
	const cold = process.argv.includes('--cold');
	let n = 0;
	const wallStart = process.hrtime.bigint();
	for (let it = 0; it < iterations; it++) {
		for (let i = 0; i < turns.length; i++) {
			if (cold) {
				clearStemMemo();
				clearRefusalMemo();
			}
			const s = process.hrtime.bigint();
			decideTurn(turns[i], options);
			const us = Number(process.hrtime.bigint() - s) / 1000;
			samples[n++] = us;
			const list = bySource.get(origin[i]) ?? [];
			bySource.set(origin[i], list);
			list.push(us);
			if (us < best[i]) best[i] = us;
		}
	}
	const wallSec = Number(process.hrtime.bigint() - wallStart) / 1e9;
	samples.sort();
	const slow = [...best.keys()]
		.sort((a, b) => best[b] - best[a])
		.slice(0, slowest)
		.map((i) => ({ i, us: best[i] }));
	best.sort();
	const fmt = (x: number): string => x.toFixed(1);
	const out = [
		`decideTurn benchmark — node ${process.version}`,
		...sources.map((s) => `  input: ${s}`),
		`  decisions: ${n} (${turns.length} turns × ${iterations} passes, after 5 warm-up passes)`,
		cold
			? '  cache: cold (the history-stem and refusal message-cue memos emptied before every decision)'
			: "  cache: warm (earlier turns' stems and refusal cues memoised by text: histories hit them, as in the product; --cold empties them)",
		`  throughput: ${Math.round(n / wallSec)} turns/second (wall clock, timer overhead included)`,
		`  per decision (µs): p50 ${fmt(percentile(samples, 50))}  p90 ${fmt(percentile(samples, 90))}  p99 ${fmt(percentile(samples, 99))}  max ${fmt(samples[n - 1])}`,
		`  per turn, best of ${iterations} passes (µs): p50 ${fmt(percentile(best, 50))}  p90 ${fmt(percentile(best, 90))}  p99 ${fmt(percentile(best, 99))}  max ${fmt(best[best.length - 1])}`,
		...[...bySource].map(([name, xs]) => {
			const a = Float64Array.from(xs).sort();
			return `  ${name} per decision (µs): p50 ${fmt(percentile(a, 50))}  p99 ${fmt(percentile(a, 99))}`;
		}),
		`  load average: ${loadavg()
			.map((x) => x.toFixed(2))
			.join(' ')} on ${availableParallelism()} CPUs`,
	];
	for (const { i, us } of slow) {
		const t = turns[i];
		const chars = t.history.reduce((n, h) => n + h.content.length, 0);
		out.push(
			`  slow: ${fmt(us)} µs  ${origin[i]}  utterance ${t.utterance.length} chars, history ${t.history.length} turns / ${chars} chars: ${JSON.stringify(t.utterance.slice(0, 60))}`,
		);
	}
	process.stdout.write(out.join('\n') + '\n');
}

main();
