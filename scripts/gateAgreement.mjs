// Agreement between the corpus's first labels and a second, blind annotator (Cohen's kappa per
// label, plus raw agreement). Tiers and writes compare as exact sets.
//   node scripts/gateAgreement.mjs SECOND.jsonl FIRST.jsonl...
import { readFileSync } from 'node:fs';

const [second, ...firsts] = process.argv.slice(2);
const read = (f) =>
	readFileSync(f, 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l));
const gold = new Map();
for (const f of firsts) for (const r of read(f)) if (r.role === 'user') gold.set(r.id, r);
const pairs = read(second)
	.map((b) => [gold.get(b.id), b])
	.filter(([a]) => a);
const key = (v) => (Array.isArray(v) ? v.join('+') || 'none' : String(v));

function kappa(name) {
	const xs = pairs.map(([a, b]) => [key(a[name]), key(b[name])]);
	const n = xs.length;
	const po = xs.filter(([a, b]) => a === b).length / n;
	const ca = new Map();
	const cb = new Map();
	for (const [a, b] of xs) {
		ca.set(a, (ca.get(a) ?? 0) + 1);
		cb.set(b, (cb.get(b) ?? 0) + 1);
	}
	let pe = 0;
	for (const [c, v] of ca) pe += (v / n) * ((cb.get(c) ?? 0) / n);
	return { name, n, agreement: po, kappa: pe === 1 ? 1 : (po - pe) / (1 - pe) };
}
console.log(`${pairs.length} turns labelled twice`);
for (const name of ['should_retrieve', 'path', 'trigger', 'depends_on_context', 'tiers', 'write']) {
	const k = kappa(name);
	console.log(`${name.padEnd(20)} agreement ${k.agreement.toFixed(3)}  kappa ${k.kappa.toFixed(3)}`);
}
