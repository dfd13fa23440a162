/**
 * In-process A/B timing of two checkouts' decideTurn (not a test): both decision cores are loaded
 * into one process and run in alternating passes over the same turns, and each pass is timed in
 * CPU time. On a shared machine (other sessions' builds and tests) wall-clock figures of separate
 * runs swing by ±20 %; alternating passes in one process see the same load, so the ratio is what
 * a change is worth. Run an A/A pair (--b = a copy of --a) to see the noise floor first.
 *   npx tsx scripts/gateAB.ts --a /work/main --b . [--passes 16] [FILE.jsonl ...]
 * Default files: the gate corpus train split. Prints min and median CPU µs per decision and the
 * B/A ratios.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Turn {
	history: Array<{ role: 'user' | 'assistant'; content: string }>;
	utterance: string;
}
type Decide = (t: Turn) => unknown;

function turnsOf(file: string): Turn[] {
	const out: Turn[] = [];
	const histories = new Map<string, Turn['history']>();
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		if (!line.trim()) continue;
		const o = JSON.parse(line) as Record<string, unknown>;
		if (typeof o.utterance === 'string') {
			const h = Array.isArray(o.history) ? (o.history as unknown[]) : [];
			out.push({
				history: h.map((x) =>
					typeof x === 'string' ? { role: 'user' as const, content: x } : (x as Turn['history'][number]),
				),
				utterance: o.utterance,
			});
			continue;
		}
		const id = String(o.conversation_id);
		const h = histories.get(id) ?? [];
		histories.set(id, h);
		const role = o.role === 'assistant' ? 'assistant' : 'user';
		if (role === 'user') out.push({ history: h.slice(), utterance: String(o.content) });
		h.push({ role, content: String(o.content) });
	}
	return out;
}

function pass(decide: Decide, turns: readonly Turn[]): number {
	const start = process.cpuUsage();
	for (const t of turns) decide(t);
	const used = process.cpuUsage(start);
	return (used.user + used.system) / turns.length;
}

async function main(argv: string[]): Promise<void> {
	const opt = (name: string): string | undefined => {
		const i = argv.indexOf(name);
		return i >= 0 ? argv[i + 1] : undefined;
	};
	const a = opt('--a');
	const b = opt('--b');
	if (!a || !b) throw new Error('usage: gateAB.ts --a DIR --b DIR [--passes N] [FILE.jsonl ...]');
	const passes = Number(opt('--passes') ?? 16);
	if (!Number.isInteger(passes) || passes < 1) throw new Error('--passes must be a positive integer');
	const files = argv.filter((x, i) => x.endsWith('.jsonl') && !['--a', '--b', '--passes'].includes(argv[i - 1]));
	const inputs = files.length ? files : ['test/fixtures/eval/gate/train.jsonl'];
	const turns = inputs.flatMap((f) => turnsOf(resolve(f)));
	const load = async (dir: string): Promise<Decide> =>
		(await import(pathToFileURL(join(resolve(dir), 'src/core/decide.ts')).href)).decideTurn as Decide;
	const A = await load(a);
	const B = await load(b);
	for (let i = 0; i < 3; i++)
		for (const t of turns) {
			A(t);
			B(t);
		}
	const ra: number[] = [];
	const rb: number[] = [];
	for (let i = 0; i < passes; i++) {
		ra.push(pass(A, turns));
		rb.push(pass(B, turns));
	}
	ra.sort((x, y) => x - y);
	rb.sort((x, y) => x - y);
	const med = (x: number[]) => x[Math.floor(x.length / 2)];
	const f = (x: number) => x.toFixed(1);
	process.stdout.write(
		`${turns.length} turns × ${passes} alternating passes (CPU µs per decision)\n` +
			`  A ${a}: min ${f(ra[0])}  median ${f(med(ra))}\n` +
			`  B ${b}: min ${f(rb[0])}  median ${f(med(rb))}\n` +
			`  B/A: min ${(rb[0] / ra[0]).toFixed(3)}  median ${(med(rb) / med(ra)).toFixed(3)}\n`,
	);
}

main(process.argv.slice(2)).catch((e: unknown) => {
	process.stderr.write(`gateAB: ${e instanceof Error ? e.message : String(e)}\n`);
	process.exitCode = 1;
});
