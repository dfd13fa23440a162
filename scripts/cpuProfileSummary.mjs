#!/usr/bin/env node
/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) by self time per function (--inclusive: with
 * callees) and, with --files, per source file: the view used to find where bench:gate's decision time goes.
 *   node --cpu-prof --cpu-prof-dir /tmp/prof dist/bench/benchGate.js
 *   node scripts/cpuProfileSummary.mjs /tmp/prof/*.cpuprofile [--top 40] [--files] [--inclusive] [--under FUNCTION]
 */
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const topAt = argv.indexOf('--top');
const top = topAt >= 0 ? Number(argv[topAt + 1]) : 40;
const byFile = argv.includes('--files');
// --inclusive: time in a function and everything it calls (each function counted once per sample).
const inclusive = argv.includes('--inclusive');
// --under NAME: only samples with a function of that name on the stack (what a stage spends on).
const underAt = argv.indexOf('--under');
const under = underAt >= 0 ? argv[underAt + 1] : null;
const files = argv.filter((a, i) => !a.startsWith('--') && i !== topAt + 1 && (underAt < 0 || i !== underAt + 1));
if (files.length === 0) {
	process.stderr.write('usage: cpuProfileSummary.mjs FILE.cpuprofile [--top N] [--files]\n');
	process.exit(1);
}
const self = new Map();
let total = 0;
for (const file of files) {
	const p = JSON.parse(readFileSync(file, 'utf8'));
	const byId = new Map(p.nodes.map((n) => [n.id, n]));
	const dt = new Map();
	for (let i = 0; i < p.samples.length; i++) dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
	const parent = new Map();
	for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const keyOf = (n) => {
		const cf = n.callFrame;
		const src = cf.url ? cf.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '') : '';
		return byFile
			? src || `(${cf.functionName || 'native'})`
			: `${cf.functionName || '(anonymous)'} ${src}:${cf.lineNumber + 1}`;
	};
	for (const [id, us] of dt) {
		if (under) {
			let on = false;
			for (let at = id; at !== undefined && !on; at = parent.get(at))
				on = byId.get(at).callFrame.functionName === under;
			if (!on) continue;
		}
		total += us;
		if (!inclusive) {
			const key = keyOf(byId.get(id));
			self.set(key, (self.get(key) ?? 0) + us);
			continue;
		}
		const seen = new Set();
		for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(byId.get(at)));
		for (const key of seen) self.set(key, (self.get(key) ?? 0) + us);
	}
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [k, us] of rows)
	process.stdout.write(
		`${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}\n`,
	);
process.stdout.write(`total ${(total / 1000).toFixed(0)} ms\n`);
